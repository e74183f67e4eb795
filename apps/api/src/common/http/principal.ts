import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/** A signed-in person (console and worker app). */
export interface SessionPrincipal {
  userId: string;
  accountId: string;
  email: string;
  name: string;
  sessionId: string;
}

/** A requester program, authenticated by its API key. */
export interface ApiKeyPrincipal {
  keyId: string;
  accountId: string;
  mode: 'live' | 'test';
}

declare module 'fastify' {
  interface FastifyRequest {
    session?: SessionPrincipal;
    apiKey?: ApiKeyPrincipal;
  }
}

/** The session principal set by SessionGuard. */
export const CurrentSession = createParamDecorator((_data: unknown, ctx: ExecutionContext) => {
  return ctx.switchToHttp().getRequest<FastifyRequest>().session as SessionPrincipal;
});

/** The API key principal set by ApiKeyGuard. */
export const CurrentApiKey = createParamDecorator((_data: unknown, ctx: ExecutionContext) => {
  return ctx.switchToHttp().getRequest<FastifyRequest>().apiKey as ApiKeyPrincipal;
});
