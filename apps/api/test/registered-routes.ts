import type { FastifyInstance } from 'fastify';
import { RouteTable } from '../src/common/http/route-table';

/**
 * Every route the test file's apps register, as `METHOD /path` the way Fastify registers it, collected by an
 * onRoute hook. Call it at the top of a test file, before any app starts: the hook must be added before the
 * first route, so it goes in where createApp hooks route registration for its own 405s (RouteTable.watch).
 * (Fastify's printRoutes tree was the other way, but it is not a complete list: it printed /assets/* as *
 * and left out /api/docs/docs/*.) The array fills as apps start.
 */
export function collectRegisteredRoutes(): string[] {
  const registered: string[] = [];
  const watch = RouteTable.prototype.watch;
  jest.spyOn(RouteTable.prototype, 'watch').mockImplementation(function (this: RouteTable, fastify: FastifyInstance) {
    fastify.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) registered.push(`${method} ${route.url}`);
    });
    watch.call(this, fastify);
  });
  return registered;
}

/** An OpenAPI path as Fastify registers it: `/api/v1/tasks/{uuid}` is `/api/v1/tasks/:uuid`. */
export const fastifyPath = (openApiPath: string): string => openApiPath.replace(/\{(\w+)\}/g, ':$1');
