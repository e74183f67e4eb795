import { FastifyAdapter } from '@nestjs/platform-fastify';
import { AsyncResource } from 'node:async_hooks';
import { registerJsonBodyParser } from '../json-body.parser';

/**
 * Fastify before 5.12.8 wrapped every request body's callback with AsyncResource.bind(), which on
 * Node 20 builds two deprecate() wrappers per call: with the GC they caused, a quarter of the API's
 * JavaScript time per checkout + submit (docs/performance.md, "Fastify 5.12.8"). Nest pins its own
 * Fastify, so package.json overrides it with ours; this fails if that override is lost.
 */
describe('a request body', () => {
  it('is parsed without binding a callback per request', async () => {
    const adapter = new FastifyAdapter();
    const fastify = adapter.getInstance();
    registerJsonBodyParser(fastify);
    fastify.post('/echo', async (request) => request.body);
    await fastify.ready();
    const bind = jest.spyOn(AsyncResource.prototype, 'bind');
    try {
      const res = await fastify.inject({ method: 'POST', url: '/echo', payload: { a: 1 } });
      expect(res.json()).toEqual({ a: 1 });
      expect(bind).not.toHaveBeenCalled();
    } finally {
      bind.mockRestore();
      await fastify.close();
    }
  });
});
