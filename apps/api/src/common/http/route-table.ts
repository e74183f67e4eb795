import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { FastifyInstance } from 'fastify';
import { ApiException } from '../errors/api.exception';
import { sendError } from '../errors/error-response';

const METHODS: HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** What each registered route was declared as, so a match can tell a static path from a parameter. */
interface RouteStore {
  pattern: string;
}

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
          const store: RouteStore = { pattern: route.url };
          this.router.on(method as HTTPMethod, route.url, () => undefined, store);
        }
      }
    });
    // GET /api/v1/projects/add_task matches GET /api/v1/projects/:uuid, so without this it would be
    // "project not found": a path that exists under other methods is a 405 naming them, before any
    // parameter route of this method takes it as an id.
    fastify.addHook('onRequest', (request, reply, done) => {
      const pattern = request.routeOptions.url;
      if (pattern === undefined || !/[:*]/.test(pattern)) return done();
      const path = request.url.split('?')[0];
      const exact = METHODS.filter((method) => (this.router.find(method, path)?.store as RouteStore | undefined)?.pattern === path);
      if (exact.length === 0 || exact.includes(request.method as HTTPMethod)) return done();
      sendError(reply, request, methodNotAllowed(request.method, path, exact));
    });
  }

  /** Methods that would match this URL; empty when the path is unknown. */
  allowedMethods(url: string): string[] {
    const path = url.split('?')[0];
    return METHODS.filter((method) => this.router.find(method, path) !== null);
  }
}

/** The one 405 answer: the contract's error with the Allow header listing what the path takes. */
export function methodNotAllowed(method: string, path: string, allowed: string[]): ApiException {
  return ApiException.of(405, 'root', `method ${method} is not allowed on ${path}; use ${allowed.join(', ')}`, {
    allow: allowed.join(', '),
  });
}
