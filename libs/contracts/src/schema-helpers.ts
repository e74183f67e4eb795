import { z } from 'zod';
import { LIMITS } from './limits';

/** An integer within [min, max], with a message that says what is allowed. */
export function intBetween(min: number, max: number) {
  const message = `must be an integer from ${min} to ${max}`;
  return z.number({ error: message }).int({ error: message }).min(min, { error: message }).max(max, { error: message });
}

/** A NUL, or half of a UTF-16 surrogate pair without the other half. */
const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const UNSTORABLE_TEXT_DETAIL = 'must not contain a NUL character (\\u0000) or an unpaired UTF-16 surrogate';

/**
 * Refuses a string PostgreSQL cannot hold: text and jsonb reject NUL and lone surrogates, so such a value
 * would pass validation and fail at the INSERT with a 500, after earlier writes (a callback address) were
 * made. Every string the API stores from a request body goes through this (the requester API's, the console's
 * projects, a sign-up's name). Aborts, so later checks (a URL's) see
 * only storable text.
 */
export function storable<T extends z.ZodType<string>>(schema: T, { abort = true }: { abort?: boolean } = {}) {
  return schema.refine((value) => !UNSTORABLE.test(value), { error: UNSTORABLE_TEXT_DETAIL, abort });
}

/**
 * An absolute http(s) URL, at most LIMITS.urlChars long, without the spaces around it: the URL parser
 * ignores them, so they would be stored and echoed back in the task as part of an address they are not
 * part of.
 */
export const httpUrl = storable(
  // abort: past the limit, the length is the one thing to fix, whatever else is wrong.
  z
    .string({ error: 'must be an absolute http(s) URL' })
    .trim()
    .max(LIMITS.urlChars, { error: `must be at most ${LIMITS.urlChars} characters`, abort: true }),
).refine(
  (value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
    } catch {
      return false;
    }
  },
  // abort: a check chained after this one (callbackUrl's) may take the value for an http(s) URL.
  { error: 'must be an absolute http(s) URL', abort: true },
);

/** Why a callback_url with a user name or password is refused (docs/decisions.md, "Callback URLs carry no user name or password; the fragment is not part of the address"). */
export const CALLBACK_URL_CREDENTIALS_DETAIL =
  "must not contain a user name or password (they would never be sent); verify the webhook's signature instead";

/** Why a callback_url past LIMITS.callbackUrlChars is refused, though it is within LIMITS.urlChars. */
export const CALLBACK_URL_LENGTH_DETAIL = `must be at most ${LIMITS.callbackUrlChars} characters as sent (a character outside ASCII counts as its percent-encoding)`;

/**
 * A task's callback address: an absolute http(s) URL without a user name or password. Credentials in the
 * URL are never sent (the challenge would fail silently) and would be shown in the console in clear;
 * receivers authenticate our requests by the webhook signature. A URL that is no http(s) URL at all
 * gets httpUrl's error only: its check aborts, so these run only on an http(s) URL. Its length is
 * counted as parsed, the form the address is stored in (webhooks/callback-url.ts): 1,000 CJK characters
 * are 9,000 once percent-encoded, more than the index of addresses can hold.
 */
export const callbackUrl = httpUrl
  .refine((value) => new URL(value).href.length <= LIMITS.callbackUrlChars, { error: CALLBACK_URL_LENGTH_DETAIL })
  .refine(
    (value) => {
      const url = new URL(value);
      return url.username === '' && url.password === '';
    },
    { error: CALLBACK_URL_CREDENTIALS_DETAIL },
  );

/**
 * A non-empty trimmed string of at most `max` characters, storable in PostgreSQL. Its storable check is
 * the last and does not abort: a union (a label is a name or {name, color}) names a branch's own error
 * only when that branch did not abort.
 */
export function text(max: number, what = 'a string') {
  return storable(
    z
      .string({ error: `must be ${what}` })
      .trim()
      .min(1, { error: 'must not be empty' })
      .max(max, { error: `must be at most ${max} characters` }),
    { abort: false },
  );
}

/**
 * A field the body must have: null is answered like an absent field ("task is a required field"), as
 * null counts as absent for every optional field.
 */
export function required<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => value ?? undefined, schema);
}

/** A JSON body that is not an object is treated as an empty object, so its errors name the missing fields. */
export function objectBody<T extends z.ZodType>(schema: T) {
  return z.preprocess(
    (value) => (value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {}),
    schema,
  );
}

/**
 * For z.preprocess before a z.record: zod's record drops a `__proto__` key without a word (writing it
 * would set the result's prototype), so it is looked for on the raw object and refused with `detail`
 * under that key. No template variable is named so (template.ts), so no such key could mean anything.
 */
export function refuseProtoKey(detail: string) {
  return (value: unknown, ctx: z.RefinementCtx): unknown => {
    if (value !== null && typeof value === 'object' && Object.hasOwn(value, '__proto__')) {
      ctx.addIssue({ code: 'custom', path: ['__proto__'], message: detail });
    }
    return value;
  };
}
