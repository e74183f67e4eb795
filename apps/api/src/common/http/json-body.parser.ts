import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LIMITS } from '@crowdbox/contracts';
import { ApiException } from '../errors/api.exception';

/** Route config key that raises the body limit for one route (add_tasks). */
export const BODY_LIMIT_CONFIG = 'bodyLimit';

/**
 * All bodies are JSON. The parser replaces Fastify's so that media types match case-insensitively
 * (`Application/json` from ex_cogmint), any declared type is read as JSON (curl -d sends form encoding),
 * an empty body is "no body", and the 1 MiB / 10 MiB limits answer in the contract's shape.
 */
export function registerJsonBodyParser(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: LIMITS.batchBodyBytes },
    (request: FastifyRequest, body: Buffer, done: (err: Error | null, body?: unknown) => void) => {
      const limit = routeBodyLimit(request);
      if (body.length > limit) {
        done(ApiException.of(413, 'body', `body is larger than ${limit} bytes; send at most ${limit} bytes`));
        return;
      }
      const text = body.toString('utf8');
      if (text.trim() === '') {
        done(null, undefined);
        return;
      }
      try {
        done(null, JSON.parse(text));
      } catch {
        done(ApiException.of(400, 'body', 'body is not valid JSON; send a JSON object with Content-Type: application/json'));
      }
    },
  );
}

function routeBodyLimit(request: FastifyRequest): number {
  const config = request.routeOptions?.config as unknown as Record<string, unknown> | undefined;
  const limit = config?.[BODY_LIMIT_CONFIG];
  return typeof limit === 'number' ? limit : LIMITS.bodyBytes;
}
