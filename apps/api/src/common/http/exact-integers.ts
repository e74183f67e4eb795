import { isInteger, isLosslessNumber, parse as parseLossless } from 'lossless-json';

/**
 * Route config key: the places in a route's JSON body where an integer beyond 2^53 is kept as its
 * digits (a string) instead of the nearest double JSON.parse makes of it.
 */
export const EXACT_INTEGERS_CONFIG = 'exactIntegers';

/** A place in a body: object keys from the top, '*' for every key of an object or index of an array. */
export type BodyPath = readonly string[];

type Container = Record<string, unknown> | unknown[];

/**
 * Puts back, at `paths` of `body` (JSON.parse's reading of `text`), the exact digits of every integer
 * too large for a double: substitutions are turned into strings (API.md §1), and a requester's 64-bit id
 * sent as a number (Python's json writes one so) must reach the prompt as sent, 12345678901234567890
 * and not 12345678901234567000, as it would from Cogmint's parser, which keeps integers exact. The
 * body is read a second time, by lossless-json, only when such a number is there, so other bodies
 * cost one walk of those places. Anything that parser refuses (a duplicate key, which JSON.parse
 * allows) leaves the body as JSON.parse read it.
 */
export function keepExactIntegers(body: unknown, text: string, paths: readonly BodyPath[]): unknown {
  const places = paths.flatMap((path) => unsafeIntegersAt(body, path));
  if (places.length === 0) return body;
  let lossless: unknown;
  try {
    lossless = parseLossless(text);
  } catch {
    return body;
  }
  for (const { at, container, key } of places) {
    const exact = valueAt(lossless, at);
    if (isLosslessNumber(exact) && isInteger(exact.value)) (container as Record<string, unknown>)[key] = exact.value;
  }
  return body;
}

interface Place {
  at: string[];
  container: Container;
  key: string;
}

/** The places along `path` that hold a number JSON.parse could not hold exactly as an integer. */
function unsafeIntegersAt(value: unknown, path: BodyPath, at: string[] = []): Place[] {
  if (!isContainer(value) || path.length === 0) return [];
  const [step, ...rest] = path;
  const keys = step === '*' ? Object.keys(value) : Object.hasOwn(value, step) ? [step] : [];
  return keys.flatMap((key) => {
    const child = (value as Record<string, unknown>)[key];
    if (rest.length > 0) return unsafeIntegersAt(child, rest, [...at, key]);
    return typeof child === 'number' && Number.isInteger(child) && !Number.isSafeInteger(child) ? [{ at: [...at, key], container: value, key }] : [];
  });
}

function valueAt(value: unknown, at: string[]): unknown {
  let here = value;
  for (const key of at) {
    if (!isContainer(here) || !Object.hasOwn(here, key)) return undefined;
    here = (here as Record<string, unknown>)[key];
  }
  return here;
}

function isContainer(value: unknown): value is Container {
  return typeof value === 'object' && value !== null;
}
