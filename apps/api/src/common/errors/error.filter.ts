import { Catch, NotFoundException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RouteTable } from '../http/route-table';
import { ApiException } from './api.exception';
import { sendError } from './error-response';

/** The global exception filter: every error thrown in a Nest handler, guard or pipe ends here. */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  constructor(private readonly routes: RouteTable) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    sendError(http.getResponse<FastifyReply>(), request, this.unmatchedRoute(exception, request) ?? exception);
  }

  /** Nest throws NotFoundException only when no route matched: tell 404 from 405. */
  private unmatchedRoute(exception: unknown, request: FastifyRequest): ApiException | undefined {
    if (!(exception instanceof NotFoundException)) return undefined;
    const path = request.url.split('?')[0];
    const allowed = this.routes.allowedMethods(request.url);
    if (allowed.length === 0) return ApiException.of(404, 'root', `no route ${request.method} ${path}`);
    return ApiException.of(405, 'root', `method ${request.method} is not allowed on ${path}; use ${allowed.join(', ')}`, {
      allow: allowed.join(', '),
    });
  }
}
