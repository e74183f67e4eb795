import { randomBytes } from 'node:crypto';

/**
 * Route config key: the places in a route's JSON body where an integer beyond 2^53 is kept as its
 * digits (a string) instead of the nearest double JSON.parse makes of it.
 */
export const EXACT_INTEGERS_CONFIG = 'exactIntegers';

/** A place in a body: object keys from the top, '*' for every key of an object or index of an array. */
export type BodyPath = readonly string[];

type Container = Record<string, unknown> | unknown[];

/**
 * A JSON string (skipped whole, so nothing inside one is ever taken for a number), or an integer token of
 * 16 digits or more standing as a value: after `[`, `:` or `,`, before `,`, `]` or `}`.
 */
const STRING_OR_LONG_INTEGER = /"(?:[^"\\]|\\.)*"|(?<=[[:,]\s*)-?\d{16,}(?=\s*[,\]}])/g;

/**
 * Puts back, at `paths` of `body` (JSON.parse's reading of `text`), the exact digits of every integer
 * too large for a double: substitutions are turned into strings (API.md §1), and a requester's 64-bit id
 * sent as a number (Python's json writes one so) must reach the prompt as sent, 12345678901234567890
 * and not 12345678901234567000, as it would from Cogmint's parser, which keeps integers exact.
 *
 * Node's JSON.parse gives a reviver no source text, so only when such a number stands at those places
 * is the body read again: each long integer token is first written as a string carrying this request's
 * random mark (which no client can send, not knowing it), then JSON.parse reads the text, and each
 * marked string becomes its digits at `paths` and, anywhere else, the number JSON.parse made of it
 * before. A 10 MB batch costs two parses and a pass of one regular expression (docs/performance.md);
 * lossless-json, a parser in JavaScript, took 2.6 s over such a body, blocking the process.
 */
export function keepExactIntegers(body: unknown, text: string, paths: readonly BodyPath[]): unknown {
  if (!paths.some((path) => unsafeIntegerAt(body, path))) return body;
  const mark = `\u0000${randomBytes(12).toString('hex')}:`;
  const quotedMark = JSON.stringify(mark).slice(1, -1);
  const marked: unknown = JSON.parse(text.replace(STRING_OR_LONG_INTEGER, (token) => (token[0] === '"' ? token : `"${quotedMark}${token}"`)));
  for (const path of paths) keepDigits(marked, path, mark);
  return unmark(marked, mark);
}

/** Whether a number JSON.parse could not hold exactly as an integer stands somewhere along `path`. */
function unsafeIntegerAt(value: unknown, path: BodyPath): boolean {
  if (!isContainer(value) || path.length === 0) return false;
  const [step, ...rest] = path;
  return keysAt(value, step).some((key) => {
    const child = (value as Record<string, unknown>)[key];
    if (rest.length > 0) return unsafeIntegerAt(child, rest);
    return typeof child === 'number' && Number.isInteger(child) && !Number.isSafeInteger(child);
  });
}

/** The marked strings along `path` become their digits. */
function keepDigits(value: unknown, path: BodyPath, mark: string): void {
  if (!isContainer(value) || path.length === 0) return;
  const [step, ...rest] = path;
  for (const key of keysAt(value, step)) {
    const child = (value as Record<string, unknown>)[key];
    if (rest.length > 0) keepDigits(child, rest, mark);
    else if (typeof child === 'string' && child.startsWith(mark)) (value as Record<string, unknown>)[key] = child.slice(mark.length);
  }
}

/** Every marked string left (not at a kept place) becomes the number JSON.parse reads its digits as. */
function unmark(value: unknown, mark: string): unknown {
  if (typeof value === 'string') return value.startsWith(mark) ? Number(value.slice(mark.length)) : value;
  if (!isContainer(value)) return value;
  for (const key of Object.keys(value)) (value as Record<string, unknown>)[key] = unmark((value as Record<string, unknown>)[key], mark);
  return value;
}

function keysAt(value: Container, step: string): string[] {
  return step === '*' ? Object.keys(value) : Object.hasOwn(value, step) ? [step] : [];
}

function isContainer(value: unknown): value is Container {
  return typeof value === 'object' && value !== null;
}
