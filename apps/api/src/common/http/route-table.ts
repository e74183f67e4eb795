import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { FastifyInstance } from 'fastify';

const METHODS: HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * Every route the server has, so a 404 can tell "no such path" from "path exists, wrong method" (405).
 * Fastify has no 405 of its own; this watches route registration through the onRoute hook.
 */
export class RouteTable {
  private readonly router = FindMyWay();

  /** Must be called before any route is registered. */
  watch(fastify: FastifyInstance): void {
    fastify.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) {
        if (METHODS.includes(method as HTTPMethod) && !this.router.hasRoute(method as HTTPMethod, route.url)) {
          this.router.on(method as HTTPMethod, route.url, () => undefined);
        }
      }
    });
  }

  /** Methods that would match this URL; empty when the path is unknown. */
  allowedMethods(url: string): string[] {
    const path = url.split('?')[0];
    return METHODS.filter((method) => this.router.find(method, path) !== null);
  }
}
