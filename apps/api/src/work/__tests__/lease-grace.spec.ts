import { leaseGraceMs } from '../checkout-expiry.scheduler';

describe('leaseGraceMs: how long a lease lives before its expiry job is added', () => {
  it('is half the allowed time, so the job is always there well before the lease runs out', () => {
    // The shortest lease (30 s) and one of a minute, under the default cap of 60 s.
    expect(leaseGraceMs(30_000, 60_000)).toBe(15_000);
    expect(leaseGraceMs(60_000, 60_000)).toBe(30_000);
  });

  it('is capped, which bounds the leases a process holds in memory to its lease rate times the cap', () => {
    expect(leaseGraceMs(600_000, 60_000)).toBe(60_000);
    expect(leaseGraceMs(86_400_000, 60_000)).toBe(60_000);
  });

  it('is 0 with a cap of 0: every job is added at checkout', () => {
    expect(leaseGraceMs(600_000, 0)).toBe(0);
  });
});
