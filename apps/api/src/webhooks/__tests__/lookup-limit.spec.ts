import type { LookupAddress } from 'node:dns';
import { setTimeout as sleep } from 'node:timers/promises';
import { limitLookups, type LimitedLookup, type LookupAll } from '../lookup-limit';

/** A resolver that answers each lookup only when told to, counting those in progress. */
function slowResolver() {
  const pending: Array<() => void> = [];
  let inProgress = 0;
  let most = 0;
  const lookup: LookupAll = (_hostname, _options, callback) => {
    inProgress += 1;
    most = Math.max(most, inProgress);
    pending.push(() => {
      inProgress -= 1;
      callback(null, [{ address: '93.184.216.34', family: 4 }]);
    });
  };
  return { lookup, pending, most: () => most };
}

const resolve = (lookup: LimitedLookup, name: string, waitMs: number) =>
  new Promise<{ error: NodeJS.ErrnoException | null; addresses: LookupAddress[] }>((done) =>
    lookup(name, { all: true }, waitMs, (error, addresses) => done({ error, addresses })),
  );

describe('limitLookups', () => {
  it('runs at most `max` lookups at once and starts the next as one ends', async () => {
    const slow = slowResolver();
    const lookup = limitLookups(slow.lookup, 2);
    const answers = Array.from({ length: 5 }, (_, i) => resolve(lookup, `slow-${i}.example`, 5_000));
    expect(slow.pending).toHaveLength(2);
    while (slow.pending.length > 0) slow.pending.shift()?.();
    await sleep(0);
    while (slow.pending.length > 0) slow.pending.shift()?.();
    await sleep(0);
    while (slow.pending.length > 0) slow.pending.shift()?.();
    const results = await Promise.all(answers);
    expect(results.every((r) => r.error === null && r.addresses[0].address === '93.184.216.34')).toBe(true);
    expect(slow.most()).toBe(2);
  });

  it('fails a lookup that waited its whole turn with ETIMEOUT, without ever starting it', async () => {
    const slow = slowResolver();
    const lookup = limitLookups(slow.lookup, 1);
    const first = resolve(lookup, 'stuck.example', 50);
    const late = await resolve(lookup, 'other.example', 50);
    expect(late.error?.code).toBe('ETIMEOUT');
    expect(slow.pending).toHaveLength(1);
    slow.pending.shift()?.();
    expect((await first).error).toBeNull();
    // The timed-out one never ran: the next lookup gets the free slot at once.
    const next = resolve(lookup, 'next.example', 50);
    expect(slow.pending).toHaveLength(1);
    slow.pending.shift()?.();
    expect((await next).error).toBeNull();
    expect(slow.most()).toBe(1);
  });
});
