import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { FastifyInstance } from 'fastify';
import { ApiException } from '../errors/api.exception';
import { sendError } from '../errors/error-response';

const METHODS: HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * Every route the server has, so a 404 can tell "no such path" from "path exists, wrong method" (405).
 * Fastify has no 405 of its own; this watches route registration through the onRoute hook.
 */
export class RouteTable {
  private readonly router = FindMyWay();
  /** The methods of each path declared without parameters (`/api/v1/projects/add_task`: POST). */
  private readonly staticPaths = new Map<string, HTTPMethod[]>();

  /** Must be called before any route is registered. */
  watch(fastify: FastifyInstance): void {
    fastify.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) {
        if (METHODS.includes(method as HTTPMethod) && !this.router.hasRoute(method as HTTPMethod, route.url)) {
          this.router.on(method as HTTPMethod, route.url, () => undefined);
          if (!/[:*]/.test(route.url)) this.staticPaths.set(route.url, [...(this.staticPaths.get(route.url) ?? []), method as HTTPMethod]);
        }
      }
    });
    // GET /api/v1/projects/add_task matches GET /api/v1/projects/:uuid, so without this it would be
    // "project not found": a path that exists under other methods is a 405 naming them, before any
    // parameter route of this method takes it as an id.
    fastify.addHook('onRequest', (request, reply, done) => {
      const path = request.url.split('?')[0];
      const exact = this.staticPaths.get(path);
      // A request that matched this exact static path has no other route to be wrong about.
      if (exact === undefined || request.routeOptions.url === path) return done();
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
