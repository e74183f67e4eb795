import { Inject, Injectable } from '@nestjs/common';
import type { RedisClient } from '../redis/redis-client';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { REDIS } from '../redis/redis.module';
import { BlockRateLimiter } from './block-rate-limiter';

/**
 * Requests per signed-in user per window on the session routes of the console and the worker app
 * (`SESSION_RATE_LIMIT_REQUESTS` per `SESSION_RATE_LIMIT_WINDOW_SECONDS`, 600 per 10 s by default), in
 * Redis in blocks with the in-process stand-in, as the /api/v1 limit (block-rate-limiter.ts). Counted
 * per user, not per session: a log-in is a new session, so a per-session count would be as easy to
 * multiply as keys were (docs/decisions.md, "Session routes are limited per user").
 */
@Injectable()
export class SessionRateLimit {
  private readonly perUser: BlockRateLimiter;

  constructor(@Inject(REDIS) redis: RedisClient, @Inject(APP_CONFIG) config: AppConfig) {
    this.perUser = new BlockRateLimiter(
      redis,
      `${config.REDIS_PREFIX}:session-rate`,
      config.SESSION_RATE_LIMIT_REQUESTS,
      config.SESSION_RATE_LIMIT_WINDOW_SECONDS,
    );
  }

  /** Counts one request of this user, or throws 429 with Retry-After. */
  consume(userId: string): Promise<void> {
    return this.perUser.consume(userId);
  }
}
