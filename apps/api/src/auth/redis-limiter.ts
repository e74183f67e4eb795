import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { ApiException } from '../common/errors/api.exception';
import type { RedisClient } from '../redis/redis-client';

/**
 * A limiter counted in Redis under `keyPrefix`, so every HTTP node shares its counts, with an in-process
 * limiter of the same numbers standing in while Redis is unreachable: an outage neither blocks everyone
 * nor lifts the limit. Every limit of the API is built here: per key, account and session
 * (block-rate-limiter.ts), log-ins, sign-ups and unknown API keys.
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

/** Every limit's 429: `what` was too much, retry after the window, in whole seconds and in Retry-After. */
export function tooManyRequests(what: string, msBeforeNext: number): ApiException {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return ApiException.of(429, 'root', `${what}; retry in ${seconds} s`, { 'retry-after': String(seconds) });
}

/** Takes one point of `key`; when its window ends (ms since the epoch), or the 429 saying `what` when none is left. */
export async function takePoint(limiter: RateLimiterRedis, key: string, what: string): Promise<number> {
  try {
    return Date.now() + (await limiter.consume(key)).msBeforeNext;
  } catch (refused) {
    if (refused instanceof RateLimiterRes) throw tooManyRequests(what, refused.msBeforeNext);
    throw refused;
  }
}
