import { Inject, Injectable } from '@nestjs/common';
import type { RedisClient } from '../redis/redis-client';
import type { ApiKeyPrincipal } from '../common/http/principal';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { REDIS } from '../redis/redis.module';
import { BlockRateLimiter } from './block-rate-limiter';

/**
 * The /api/v1 rate limit: `RATE_LIMIT_REQUESTS` per key and `RATE_LIMIT_ACCOUNT_REQUESTS` (unset: the
 * same) per account and key mode, per `RATE_LIMIT_WINDOW_SECONDS`, so an account cannot multiply its
 * budget by creating keys. An account's live keys share one budget and its test keys another: test
 * traffic (a requester's CI, say) never uses up what its production program needs (docs/decisions.md,
 * "Rate limit").
 */
@Injectable()
export class RateLimitService {
  /**
   * Null when the account's limit is no larger than a key's: a key's requests are its account's, so its
   * own limit could never be reached first, and a second bucket would only cost Redis calls.
   */
  private readonly perKey: BlockRateLimiter | null;
  private readonly perAccount: BlockRateLimiter;

  constructor(@Inject(REDIS) redis: RedisClient, @Inject(APP_CONFIG) config: AppConfig) {
    const keyPoints = config.RATE_LIMIT_REQUESTS;
    const accountPoints = config.RATE_LIMIT_ACCOUNT_REQUESTS ?? keyPoints;
    const window = config.RATE_LIMIT_WINDOW_SECONDS;
    this.perKey =
      accountPoints > keyPoints ? new BlockRateLimiter(redis, `${config.REDIS_PREFIX}:rate`, keyPoints, window, config.RATE_LIMIT_BLOCK) : null;
    this.perAccount = new BlockRateLimiter(redis, `${config.REDIS_PREFIX}:rate-account`, accountPoints, window, config.RATE_LIMIT_BLOCK);
  }

  /** Counts one request of this key, or throws 429 with Retry-After when the key or its account is over. */
  async consume(principal: ApiKeyPrincipal): Promise<void> {
    // The key first: a key over its own limit takes nothing from its account's others.
    if (this.perKey) await this.perKey.consume(principal.keyId);
    await this.perAccount.consume(`${principal.accountId}:${principal.mode}`);
  }
}
