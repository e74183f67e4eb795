import { createHash, hash, randomBytes } from 'node:crypto';

/** URL-safe random text with `bytes` bytes of entropy. */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** One-shot `crypto.hash` (Node >= 20.12): a quarter of createHash's cost, paid by every API-key request. */
export function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex');
}

/** A deterministic UUID (v4 layout) from any seed text: the test mode's fake ids. */
export function uuidFromSeed(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}
