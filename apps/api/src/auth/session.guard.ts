import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiException } from '../common/errors/api.exception';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { readSessionCookie, type CookieSettings } from './session-cookie';
import { SessionRateLimit } from './session-rate-limit';
import { sessionEnded, SessionsService } from './sessions.service';

/** The `/api/session/*` routes that count against the session rate limit all the same: reads as dear as any. */
const LIMITED_SESSION_ROUTES: ReadonlySet<string> = new Set(['/api/session/export']);

/**
 * Accepts `Authorization: Bearer <token>` or the httpOnly session cookie, and holds the user to the
 * session rate limit on every route but `/api/session/*` (log-out, me and the password change must
 * answer whatever the user did before; the change has the log-in limits), except the account's data file.
 */
@Injectable()
export class SessionGuard implements CanActivate {
  constructor(
    private readonly sessions: SessionsService,
    private readonly rateLimit: SessionRateLimit,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const token = sessionToken(request, this.config);
    if (!token) throw ApiException.of(401, 'root', 'log in first: send Authorization: Bearer <token> or the session cookie');
    const principal = await this.sessions.resolve(token, request.ip);
    if (!principal) throw sessionEnded();
    const route = request.routeOptions.url ?? '';
    if (!route.startsWith('/api/session/') || LIMITED_SESSION_ROUTES.has(route)) await this.rateLimit.consume(principal.userId);
    request.session = principal;
    return true;
  }
}

export function sessionToken(request: FastifyRequest, config: CookieSettings): string | undefined {
  const header = request.headers.authorization;
  if (header?.toLowerCase().startsWith('bearer ')) return header.slice(7).trim() || undefined;
  return readSessionCookie(request, config);
}
