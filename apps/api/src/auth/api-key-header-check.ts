import type { FastifyInstance } from 'fastify';
import { apiKeyHeader, noApiKey } from './api-key.guard';

/**
 * A requester API call with no `apikey` header (or an empty one) is answered in onRequest, before its
 * body is read: the guard runs after the body is parsed, so such a call with a malformed or oversized
 * body got the body's 400 or 413, where API.md's error table says a missing key is a 401 on `apikey`.
 * The answer is the guard's own (noApiKey), and the guard stays the one place that looks keys up.
 */
export function registerApiKeyHeaderCheck(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, _reply, done) => {
    // The matched route's pattern, as for the browser-origin check: every /api/v1 route has the guard.
    const route = request.routeOptions.url;
    if (route === undefined || !route.startsWith('/api/v1/')) return done();
    const given = apiKeyHeader(request);
    done(given ? undefined : noApiKey(given));
  });
}
