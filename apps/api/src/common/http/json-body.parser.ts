import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isUtf8 } from 'node:buffer';
import { LIMITS } from '@crowdbox/contracts';
import { ApiException } from '../errors/api.exception';
import { EXACT_INTEGERS_CONFIG, keepExactIntegers, type BodyPath } from './exact-integers';

/** Route config key that raises the body limit for one route (add_tasks). */
export const BODY_LIMIT_CONFIG = 'bodyLimit';

/**
 * All bodies are JSON. The parser replaces Fastify's so that media types match case-insensitively
 * (`Application/json` from ex_cogmint), any declared type is read as JSON (curl -d sends form encoding),
 * and an empty body is "no body"; a route may name where an integer too large for a double keeps its
 * digits (EXACT_INTEGERS_CONFIG). JSON text is UTF-8 (RFC 8259 §8.1): a body in another encoding is a
 * 400, where decoding it anyway would store U+FFFD in place of the requester's accented letters, and a
 * leading byte order mark, which the RFC lets a parser ignore (Windows tools write one), is skipped.
 *
 * Each route gets its limit as Fastify's own route `bodyLimit` (1 MiB; add_tasks 10 MiB through
 * BODY_LIMIT_CONFIG), so Fastify refuses a larger declared Content-Length before reading a byte, and
 * stops reading a body that grows past it. With one server-wide 10 MiB limit and a check after parsing,
 * any route, log-in and sign-up included, read 10 MiB from anyone before refusing 9 of them.
 * sendError answers Fastify's refusal in the contract's shape, with bodyTooLarge's words.
 */
export function registerJsonBodyParser(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    route.bodyLimit ??= routeBodyLimit(route.config as unknown as Record<string, unknown> | undefined);
  });
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    '*',
    { parseAs: 'buffer' },
    (request: FastifyRequest, body: Buffer, done: (err: Error | null, body?: unknown) => void) => {
      if (!isUtf8(body)) {
        done(ApiException.of(400, 'body', 'body is not valid UTF-8; send JSON encoded in UTF-8'));
        return;
      }
      const text = body.toString('utf8', startsWithBom(body) ? 3 : 0);
      if (text.trim() === '') {
        done(null, undefined);
        return;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        done(ApiException.of(400, 'body', 'body is not valid JSON; send a JSON object with Content-Type: application/json'));
        return;
      }
      const exact = (request.routeOptions.config as unknown as Record<string, unknown> | undefined)?.[EXACT_INTEGERS_CONFIG] as BodyPath[] | undefined;
      done(null, exact ? keepExactIntegers(parsed, text, exact) : parsed);
    },
  );
}

function startsWithBom(body: Buffer): boolean {
  return body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf;
}

function routeBodyLimit(config: Record<string, unknown> | undefined): number {
  const limit = config?.[BODY_LIMIT_CONFIG];
  return typeof limit === 'number' ? limit : LIMITS.bodyBytes;
}

/** The 413 of a body over its route's limit (`limit`, from request.routeOptions.bodyLimit). */
export function bodyTooLarge(limit: number): ApiException {
  return ApiException.of(413, 'body', `body is larger than ${limit} bytes; send at most ${limit} bytes`);
}
