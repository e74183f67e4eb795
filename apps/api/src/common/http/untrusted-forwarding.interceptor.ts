import proxyAddr from '@fastify/proxy-addr';
import { Inject, Injectable, Logger, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Observable } from 'rxjs';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.schema';

/** How long after one warning the next may be logged. */
const QUIET_MS = 60 * 60 * 1000;

/**
 * On the routes whose client address counts (sign-up and log-in: their limits are per address), warns
 * when a request carries X-Forwarded-For from a peer TRUST_PROXY does not list, at most once an hour per
 * process. Fastify then ignores the header, as it should for a client that forges it; but when that peer
 * is the operator's own load balancer on another host, every client behind it counts as one address, and
 * the 21st sign-up of an hour is refused for everyone. Nothing else would tell the operator why.
 *
 * The peer is judged as Fastify judges it: the same setting compiled by the same @fastify/proxy-addr
 * (with TRUST_PROXY=true every peer is trusted, and nothing is ever said).
 */
@Injectable()
export class UntrustedForwardingWarning implements NestInterceptor {
  private readonly logger = new Logger('TrustProxy');
  private readonly trusted: (address: string, hop: number) => boolean;
  private quietUntil = 0;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const setting = config.TRUST_PROXY;
    this.trusted = typeof setting === 'boolean' ? () => setting : proxyAddr.compile(setting);
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const peer = request.socket.remoteAddress;
    if (request.headers['x-forwarded-for'] !== undefined && peer && !this.trusted(peer, 0) && Date.now() >= this.quietUntil) {
      this.quietUntil = Date.now() + QUIET_MS;
      this.logger.warn(
        `ignored X-Forwarded-For from ${peer}, which TRUST_PROXY does not list; if ${peer} is your proxy, add it to TRUST_PROXY, ` +
          'or the sign-up and log-in limits count every client behind it as one address (docs/running.md). Next such warning in an hour at the soonest.',
      );
    }
    return next.handle();
  }
}
