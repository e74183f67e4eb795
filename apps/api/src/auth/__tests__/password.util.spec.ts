import { performance } from 'node:perf_hooks';
import { hashPassword, verifyUserPassword } from '../password.util';

/** Median time of `runs` calls of `check`, in ms. */
async function medianMs(runs: number, check: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    await check();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)];
}

describe('verifyUserPassword', () => {
  it('refuses an unknown email after the same work as a wrong password, so timing does not tell which emails exist', async () => {
    const stored = await hashPassword('right password');
    expect(await verifyUserPassword('right password', stored)).toBe(true);
    expect(await verifyUserPassword('wrong password', stored)).toBe(false);
    expect(await verifyUserPassword('right password', undefined)).toBe(false);

    // A ratio in one process, not a time: a derivation is tens of ms, a refusal without one microseconds.
    const wrong = await medianMs(5, () => verifyUserPassword('wrong password', stored));
    const unknown = await medianMs(5, () => verifyUserPassword('wrong password', undefined));
    expect(unknown / wrong).toBeGreaterThan(0.3);
  });
});
