import type { RedisClient } from '../redis/redis-client';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';

/**
 * A limiter counted in Redis under `keyPrefix`, so every HTTP node shares its counts, with an in-process
 * limiter of the same numbers standing in while Redis is unreachable: an outage neither blocks everyone
 * nor lifts the limit. The API-key rate limit, the log-in limits and the sign-up limit are built here.
 */
export function redisLimiter(redis: RedisClient, keyPrefix: string, points: number, durationSeconds: number): RateLimiterRedis {
  return new RateLimiterRedis({
    storeClient: redis,
    keyPrefix,
    points,
    duration: durationSeconds,
    insuranceLimiter: new RateLimiterMemory({ points, duration: durationSeconds }),
  });
}
