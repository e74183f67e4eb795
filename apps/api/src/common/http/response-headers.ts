import type { FastifyInstance } from 'fastify';

/** What the pages send too (web/web-app.ts): no framing, no sniffing. */
const NO_FRAMING = { 'content-security-policy': "frame-ancestors 'none'", 'x-frame-options': 'DENY', 'x-content-type-options': 'nosniff' };
/**
 * HTTPS only for a year, on answers to requests that came over HTTPS (directly, or through a proxy
 * TRUST_PROXY believes; browsers ignore it over plain HTTP). Without it a network attacker could answer
 * a first plain-HTTP visit: strip the log-in form's HTTPS, or plant cookies. Not includeSubDomains: a
 * sibling host without TLS is the operator's to decide on.
 */
const HSTS = 'max-age=31536000';

/**
 * Headers every answer gets, in one callback-style onSend hook (an async hook costs a promise per
 * request on every route):
 * - `x-request-id`, the id the request log and a 500's detail name;
 * - `cache-control: no-store` unless the route chose its own caching (the pages, the assets): the API's
 *   answers hold API keys at creation, the signing secret, tasks and results, and the requester API
 *   authenticates with an `apikey` header, which no shared cache knows to keep per client;
 * - `x-content-type-options: nosniff`, so no answer is ever read as another type than it says;
 * - `strict-transport-security` on answers over HTTPS (HSTS above);
 * - on Swagger UI (/api/docs, an HTML page of ours outside the web app), the pages' no-framing headers.
 */
export function registerResponseHeaders(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    reply.header('x-content-type-options', 'nosniff');
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    if (request.url.startsWith('/api/docs')) reply.headers(NO_FRAMING);
    done(null, payload);
  });
}
