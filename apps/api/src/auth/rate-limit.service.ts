import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { ApiException } from '../common/errors/api.exception';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { REDIS } from '../redis/redis.module';

/**
 * Requests per API key per window, counted in Redis so every HTTP node shares the bucket. While Redis
 * is unreachable an in-process limiter with the same numbers stands in, so an outage neither blocks
 * requesters nor removes the limit.
 */
@Injectable()
export class RateLimitService {
  private readonly limiter: RateLimiterRedis;

  constructor(@Inject(REDIS) redis: Redis, @Inject(APP_CONFIG) config: AppConfig) {
    const points = config.RATE_LIMIT_REQUESTS;
    const duration = config.RATE_LIMIT_WINDOW_SECONDS;
    this.limiter = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: `${config.REDIS_PREFIX}:rate`,
      points,
      duration,
      insuranceLimiter: new RateLimiterMemory({ points, duration }),
    });
  }

  async consume(key: string): Promise<void> {
    try {
      await this.limiter.consume(key);
    } catch (result) {
      if (!(result instanceof RateLimiterRes)) throw result;
      const seconds = Math.max(1, Math.ceil(result.msBeforeNext / 1000));
      throw ApiException.of(429, 'root', `rate limit exceeded; retry in ${seconds} s`, { 'retry-after': String(seconds) });
    }
  }
}
