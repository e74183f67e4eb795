import { performance } from 'node:perf_hooks';
import { hashPassword, needsRehash, padding, scryptParams, UNUSABLE_PASSWORD_HASH, verifyUserPassword } from '../password.util';

/**
 * The median over `runs` pairs of how long `check` takes against `reference`, each pair run back to back:
 * a ratio, not a time, and one the machine's load shifts alike on both sides (two medians taken one after
 * the other were 0.54 where 1 was expected, on a busy CI machine).
 */
async function medianRatio(runs: number, check: () => Promise<unknown>, reference: () => Promise<unknown>): Promise<number> {
  const timed = async (f: () => Promise<unknown>) => {
    const start = performance.now();
    await f();
    return performance.now() - start;
  };
  const ratios: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    // Alternating which goes first, so that neither always meets a warmer or a colder process.
    let checkMs: number;
    let referenceMs: number;
    if (i % 2 === 0) {
      checkMs = await timed(check);
      referenceMs = await timed(reference);
    } else {
      referenceMs = await timed(reference);
      checkMs = await timed(check);
    }
    ratios.push(checkMs / referenceMs);
  }
  return ratios.sort((x, y) => x - y)[Math.floor(runs / 2)];
}

const CHEAP = scryptParams(1);

describe('verifyUserPassword', () => {
  it('refuses an unknown email after the same work as a wrong password, so timing does not tell which emails exist', async () => {
    const stored = await hashPassword('right password', CHEAP);
    expect(await verifyUserPassword('right password', stored, CHEAP)).toBe(true);
    expect(await verifyUserPassword('wrong password', stored, CHEAP)).toBe(false);
    expect(await verifyUserPassword('right password', undefined, CHEAP)).toBe(false);

    // A ratio in one process, not a time: a derivation is tens of ms, a refusal without one microseconds.
    const unknownToWrong = await medianRatio(
      7,
      () => verifyUserPassword('wrong password', undefined, CHEAP),
      () => verifyUserPassword('wrong password', stored, CHEAP),
    );
    expect(unknownToWrong).toBeGreaterThan(0.3);
  });

  it('checks a hash with the parameters it carries, whatever new hashes use', async () => {
    const stored = await hashPassword('right password', scryptParams(2));
    expect(stored).toMatch(/^scrypt\$16384\$8\$2\$[^$]+\$[^$]+$/);
    expect(await verifyUserPassword('right password', stored, CHEAP)).toBe(true);
    expect(await verifyUserPassword('right password', stored, scryptParams(5))).toBe(true);
    expect(await verifyUserPassword('wrong password', stored, scryptParams(5))).toBe(false);
  });

  it('answers false, without throwing, for a deleted account’s unusable hash, whatever the password', async () => {
    for (const password of ['', 'right password', UNUSABLE_PASSWORD_HASH, 'deleted']) {
      await expect(verifyUserPassword(password, UNUSABLE_PASSWORD_HASH, CHEAP)).resolves.toBe(false);
    }
  });
});

describe('needsRehash', () => {
  it('is true for a hash made with other parameters than new hashes get, or one it cannot read', () => {
    const at = (n: number, r: number, p: number) => `scrypt$${n}$${r}$${p}$c2FsdA==$aGFzaA==`;
    const current = scryptParams(5);
    expect(needsRehash(at(16384, 8, 1), current)).toBe(true);
    expect(needsRehash(at(8192, 8, 5), current)).toBe(true);
    expect(needsRehash(at(16384, 4, 5), current)).toBe(true);
    expect(needsRehash(at(16384, 8, 5), current)).toBe(false);
    // Dearer than the setting (a setting lowered since): hashed again too, as the operator asked.
    expect(needsRehash(at(16384, 8, 8), current)).toBe(true);
    expect(needsRehash(at(32768, 8, 1), current)).toBe(true);
    expect(needsRehash('bcrypt$whatever', current)).toBe(true);
  });
});

describe('scryptParams', () => {
  it('at the default p = 5, is OWASP’s listed equivalent of its minimum (N = 2^14, r = 8, p = 5)', () => {
    expect(scryptParams(5)).toEqual({ N: 2 ** 14, r: 8, p: 5 });
  });
});

describe('an account whose hash predates a raise of the parameters', () => {
  it('answers a wrong password after the current work, like an unknown email, not the old hash’s', async () => {
    const current = scryptParams(4);
    const old = await hashPassword('right password', CHEAP);
    expect(await verifyUserPassword('right password', old, current)).toBe(true);
    expect(await verifyUserPassword('wrong password', old, current)).toBe(false);

    const oldToUnknown = await medianRatio(
      7,
      () => verifyUserPassword('wrong password', old, current),
      () => verifyUserPassword('wrong password', undefined, current),
    );
    // Unpadded, the old hash's check is a quarter of the decoy's work (p = 1 against 4).
    expect(oldToUnknown).toBeGreaterThan(0.6);
  });

  it('is padded by exactly the work it lacks (N · r · p), in the current N and r, and not at all when it cost as much', () => {
    expect(padding({ N: 16384, r: 8, p: 1 }, { N: 16384, r: 8, p: 4 })).toEqual({ N: 16384, r: 8, p: 3 });
    // N raised: 2 units owed at N = 2^14 are 1 p at 2^15, not a whole current hash (2 p).
    expect(padding({ N: 16384, r: 8, p: 2 }, { N: 32768, r: 8, p: 2 })).toEqual({ N: 32768, r: 8, p: 1 });
    // A remainder rounds up: 3 units owed at 2 a p.
    expect(padding({ N: 16384, r: 8, p: 1 }, { N: 32768, r: 8, p: 2 })).toEqual({ N: 32768, r: 8, p: 2 });
    expect(padding({ N: 16384, r: 8, p: 5 }, { N: 16384, r: 8, p: 5 })).toBeUndefined();
    expect(padding({ N: 16384, r: 8, p: 8 }, { N: 16384, r: 8, p: 5 })).toBeUndefined();
  });
});
