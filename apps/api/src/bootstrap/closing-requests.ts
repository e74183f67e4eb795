import type { FastifyInstance } from 'fastify';
import { ApiException } from '../common/errors/api.exception';

/**
 * A request that arrives while the server closes (on a kept-alive connection: a load balancer's, during
 * a rolling deploy) is answered 503 in the contract's shape, with Retry-After and Connection: close
 * (Fastify adds it while closing), so the client retries on another process. Fastify's own answer
 * (`return503OnClosing`, off in create-app.ts) wrote `{"error":"Service Unavailable",…}` straight to the
 * socket, past every hook: no request id, no log line, no metric, and not the shape clients parse.
 */
export function registerClosingAnswer(fastify: FastifyInstance): void {
  let closing = false;
  fastify.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  fastify.addHook('onRequest', (_request, _reply, done) => {
    if (!closing) return done();
    done(ApiException.of(503, 'root', 'this server is shutting down; retry', { 'retry-after': '1' }));
  });
}
