import { Catch, NotFoundException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { methodNotAllowed, type RouteTable } from '../http/route-table';
import { ApiException } from './api.exception';
import { sendError } from './error-response';

/** Answers a request that matched no route before it becomes a 404 (the web app's pages); false to pass. */
export interface UnmatchedRouteHandler {
  serveUnmatched(request: FastifyRequest, reply: FastifyReply): boolean;
}

/** The global exception filter: every error thrown in a Nest handler, guard or pipe ends here. */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  constructor(
    private readonly routes: RouteTable,
    private readonly unmatched?: UnmatchedRouteHandler,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const error = this.unmatchedRoute(exception, request);
    if (error?.status === 404 && this.unmatched?.serveUnmatched(request, reply)) return;
    sendError(reply, request, error ?? exception);
  }

  /**
   * Nest throws NotFoundException only when no route matched: tell 404 from 405. A route that hands the
   * request on as not found (@fastify/static for a missing file under /assets) is a 404 too, not a 405.
   */
  private unmatchedRoute(exception: unknown, request: FastifyRequest): ApiException | undefined {
    if (!(exception instanceof NotFoundException)) return undefined;
    const path = request.url.split('?')[0];
    const allowed = this.routes.allowedMethods(request.url);
    if (allowed.length === 0 || allowed.includes(request.method)) return ApiException.of(404, 'root', `no route ${request.method} ${path}`);
    return methodNotAllowed(request.method, path, allowed);
  }
}
