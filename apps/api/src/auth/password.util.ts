import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt's cost parameters; each hash carries the ones it was made with. */
export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/**
 * The parameters new hashes use: N = 2^14 and r = 8 (16 MiB per hash) with `p` from PASSWORD_SCRYPT_P.
 * OWASP's minimum is N = 2^17, r = 8, p = 1 (128 MiB), or an equivalent it lists: N = 2^14, r = 8, p = 5
 * is one, at an eighth of the memory per log-in, which is what a server of a few GiB can afford under a
 * burst of log-ins (docs/decisions.md, "Password hashes").
 */
export function scryptParams(p: number): ScryptParams {
  return { N: 16384, r: 8, p };
}

const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, KEY_LENGTH, { ...options, maxmem: 64 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/** `scrypt$N$r$p$salt$hash`: the parameters travel with the hash so they can be raised later. */
export async function hashPassword(password: string, params: ScryptParams): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/**
 * What a deleted account's password hash is replaced with: not in the `scrypt$…` form, so parse() refuses
 * it and every check against it answers false (no password matches it, and nothing throws).
 */
export const UNUSABLE_PASSWORD_HASH = '!deleted';

function parse(stored: string): { params: ScryptParams; salt: Buffer; hash: Buffer } | undefined {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !hash) return undefined;
  return { params: { N: Number(n), r: Number(r), p: Number(p) }, salt: Buffer.from(salt, 'base64'), hash: Buffer.from(hash, 'base64') };
}

/**
 * Checks `password` against `stored`, then, when `stored` was made with less work than `params`, does
 * the difference on a throwaway salt: every check costs what a current hash costs, so an account whose
 * hash predates a raise of PASSWORD_SCRYPT_P answers a wrong password as slowly as an unknown email
 * (checked against a current decoy) does.
 */
async function verifyPassword(password: string, stored: string, params: ScryptParams): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const actual = await derive(password, parsed.salt, parsed.params);
  const ok = actual.length === parsed.hash.length && timingSafeEqual(actual, parsed.hash);
  const pad = padding(parsed.params, params);
  if (pad) await derive(password, randomBytes(16), pad);
  return ok;
}

/**
 * The work still owed after a check with `done` to match one with `target`: target's N and r, with the p
 * that makes up the difference (rounded up), or nothing when `done` already cost as much.
 */
export function padding(done: ScryptParams, target: ScryptParams): ScryptParams | undefined {
  const owed = work(target) - work(done);
  if (owed <= 0) return undefined;
  return { N: target.N, r: target.r, p: Math.ceil(owed / (target.N * target.r)) };
}

/**
 * True when `stored` was made with other parameters than `params`: log-in then hashes it again, so every
 * hash converges on what the setting asks, cheaper as well as dearer (an operator who lowers
 * PASSWORD_SCRYPT_P means it; and an unknown email's decoy costs what the setting says).
 */
export function needsRehash(stored: string, params: ScryptParams): boolean {
  const parsed = parse(stored);
  return !parsed || parsed.params.N !== params.N || parsed.params.r !== params.r || parsed.params.p !== params.p;
}

/** scrypt's work, in units of one block mix over N: it grows as N · r · p. */
const work = (params: ScryptParams): number => params.N * params.r * params.p;

/** Hashes of a random password, one per parameters, made once: what an unknown email's log-in is checked against. */
const decoys = new Map<string, Promise<string>>();

function decoy(params: ScryptParams): Promise<string> {
  const key = `${params.N}$${params.r}$${params.p}`;
  let hash = decoys.get(key);
  if (!hash) decoys.set(key, (hash = hashPassword(randomBytes(32).toString('base64'), params)));
  return hash;
}

/**
 * verifyPassword, also for a user that does not exist (`stored` undefined): the password is then
 * checked against a decoy hash made with `params`, the parameters of new hashes, and refused, so an
 * unknown email takes as long as a wrong password and the answer's timing does not tell which emails
 * have accounts; an account whose hash is older and cheaper is padded to the same work
 * (verifyPassword) until its next log-in hashes it again (needsRehash).
 */
export async function verifyUserPassword(password: string, stored: string | undefined, params: ScryptParams): Promise<boolean> {
  const ok = await verifyPassword(password, stored ?? (await decoy(params)), params);
  return stored !== undefined && ok;
}
