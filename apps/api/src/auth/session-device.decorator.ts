import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { SessionDevice } from './sessions.service';

/**
 * The device a sign-up or log-in comes from: its User-Agent and the client address `@Ip()` reads
 * (Fastify's `request.ip`, which TRUST_PROXY governs); kept with the session it starts.
 */
export const Device = createParamDecorator(
  (_: unknown, context: ExecutionContext): SessionDevice => {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    return { userAgent: request.headers['user-agent'], clientAddress: request.ip };
  },
);
