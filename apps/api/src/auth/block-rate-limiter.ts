import type { RedisClient } from '../redis/redis-client';
import { RateLimiterRes, type RateLimiterRedis } from 'rate-limiter-flexible';
import { redisLimiter, tooManyRequests } from './redis-limiter';

/** Tokens of one key's window that this process took from the shared bucket and has not spent yet. */
interface Grant {
  tokens: number;
  /** When the window the tokens belong to ends (ms since the epoch); unspent tokens vanish with it. */
  endsAt: number;
}

/** A process forgets the grants of keys it has not seen for a window once it holds this many. */
const MAX_GRANTS = 10_000;

/**
 * Requests per key per window, counted in Redis (under `keyPrefix`) so every HTTP node shares the
 * bucket, with redisLimiter's in-process stand-in while Redis is unreachable, so an outage neither
 * blocks requests nor removes the limit. Over the limit: 429, field `root`, `rate limit exceeded; retry
 * in N s`, with Retry-After. Used by the /api/v1 limits per key and per account and by the session limit.
 *
 * A process takes its tokens from the shared bucket `block` at a time and spends them locally until the
 * window ends, so a busy key costs one Redis call per block instead of one per request (docs/decisions.md,
 * "Rate limit"). The total across nodes never exceeds the limit; a node may hold up to block - 1 unspent
 * tokens while another node's request is refused.
 */
export class BlockRateLimiter {
  private readonly limiter: RateLimiterRedis;
  private readonly block: number;
  private readonly grants = new Map<string, Grant>();
  /** One reservation in flight per key: the requests that find no token wait for it together. */
  private readonly reserving = new Map<string, Promise<void>>();

  constructor(
    redis: RedisClient,
    keyPrefix: string,
    private readonly points: number,
    windowSeconds: number,
    configuredBlock?: number,
  ) {
    this.block = rateLimitBlock(points, configuredBlock);
    this.limiter = redisLimiter(redis, keyPrefix, points, windowSeconds);
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
        throw tooManyRequests('rate limit exceeded', refused.msBeforeNext);
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
 * Tokens taken per Redis call: `configured` when set, else 5 % of the limit (1 for limits under 40, so
 * small limits stay exact per request), at most 100.
 */
export function rateLimitBlock(points: number, configured: number | undefined): number {
  const block = configured ?? Math.floor(points / 20);
  return Math.max(1, Math.min(block, 100, points));
}
