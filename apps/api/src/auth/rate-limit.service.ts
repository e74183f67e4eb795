import { Inject, Injectable } from '@nestjs/common';
import type { RedisClient } from '../redis/redis-client';
import { RateLimiterRes, type RateLimiterRedis } from 'rate-limiter-flexible';
import { ApiException } from '../common/errors/api.exception';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { REDIS } from '../redis/redis.module';
import { redisLimiter } from './redis-limiter';

/** Tokens of one key's window that this process took from the shared bucket and has not spent yet. */
interface Grant {
  tokens: number;
  /** When the window the tokens belong to ends (ms since the epoch); unspent tokens vanish with it. */
  endsAt: number;
}

/** A process forgets the grants of keys it has not seen for a window once it holds this many. */
const MAX_GRANTS = 10_000;

/**
 * Requests per API key per window, counted in Redis so every HTTP node shares the bucket. While Redis
 * is unreachable an in-process limiter with the same numbers stands in, so an outage neither blocks
 * requesters nor removes the limit.
 *
 * A process takes its tokens from the shared bucket `RATE_LIMIT_BLOCK` at a time and spends them
 * locally until the window ends, so a busy key costs one Redis call per block instead of one per request
 * (docs/decisions.md, "Rate limit"). The total across nodes never exceeds the limit; a node may hold up to
 * block - 1 unspent tokens while another node's request is refused.
 */
@Injectable()
export class RateLimitService {
  private readonly limiter: RateLimiterRedis;
  private readonly points: number;
  private readonly block: number;
  private readonly grants = new Map<string, Grant>();
  /** One reservation in flight per key: the requests that find no token wait for it together. */
  private readonly reserving = new Map<string, Promise<void>>();

  constructor(@Inject(REDIS) redis: RedisClient, @Inject(APP_CONFIG) config: AppConfig) {
    const points = config.RATE_LIMIT_REQUESTS;
    this.points = points;
    this.block = rateLimitBlock(points, config.RATE_LIMIT_BLOCK);
    this.limiter = redisLimiter(redis, `${config.REDIS_PREFIX}:rate`, points, config.RATE_LIMIT_WINDOW_SECONDS);
  }

  async consume(key: string): Promise<void> {
    // Each pass either spends a token, waits for a reservation that adds some, or throws 429. Waiters
    // outnumbering a block's tokens start the next reservation, so the loop ends.
    for (;;) {
      if (this.spend(key)) return;
      const pending = this.reserving.get(key);
      if (pending) {
        await pending;
        continue;
      }
      const reservation = this.reserve(key).finally(() => this.reserving.delete(key));
      this.reserving.set(key, reservation);
      await reservation;
    }
  }

  private spend(key: string): boolean {
    const grant = this.grants.get(key);
    if (!grant || grant.tokens === 0) return false;
    if (grant.endsAt <= Date.now()) {
      this.grants.delete(key);
      return false;
    }
    grant.tokens -= 1;
    return true;
  }

  /** Takes a block of tokens from the shared bucket; what is left of it when the bucket runs low; or 429. */
  private async reserve(key: string): Promise<void> {
    let result: RateLimiterRes;
    let tokens = this.block;
    try {
      result = await this.limiter.consume(key, this.block);
    } catch (refused) {
      if (!(refused instanceof RateLimiterRes)) throw refused;
      result = refused;
      // The bucket counted the whole block; what it had before this call is still ours to spend.
      tokens = Math.min(this.block, this.points - (refused.consumedPoints - this.block));
      if (tokens <= 0) {
        const seconds = Math.max(1, Math.ceil(refused.msBeforeNext / 1000));
        throw ApiException.of(429, 'root', `rate limit exceeded; retry in ${seconds} s`, { 'retry-after': String(seconds) });
      }
    }
    if (this.grants.size >= MAX_GRANTS) this.forgetEnded();
    this.grants.set(key, { tokens, endsAt: Date.now() + result.msBeforeNext });
  }

  private forgetEnded(): void {
    const now = Date.now();
    for (const [key, grant] of this.grants) if (grant.endsAt <= now) this.grants.delete(key);
  }
}

/**
 * Tokens taken per Redis call: `RATE_LIMIT_BLOCK` when set, else 5 % of the limit (1 for limits under
 * 40, so small limits stay exact per request), at most 100.
 */
export function rateLimitBlock(points: number, configured: number | undefined): number {
  const block = configured ?? Math.floor(points / 20);
  return Math.max(1, Math.min(block, 100, points));
}
