import { Inject, Injectable } from '@nestjs/common';
import type { RedisClient } from '../redis/redis-client';
import type { RateLimiterRedis } from 'rate-limiter-flexible';
import { clientAddressKey } from '../common/http/client-address-key';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { REDIS } from '../redis/redis.module';
import { redisLimiter, takePoint, tooManyRequests } from './redis-limiter';

/** The window of FAILED_API_KEYS_PER_ADDRESS_PER_MINUTE. */
const WINDOW_SECONDS = 60;

/**
 * The secrets whose look-ups are limited, each counted apart under its own Redis key (one kind's flood
 * does not refuse the other's), with the words of its 429 and when a look-up pays:
 * - `before`: each look-up takes its point before the database is asked (atomic, so a parallel burst of
 *   made-up secrets cannot pass together) and one that finds a secret gives it back. API keys: a few per
 *   client, so their look-ups in flight at once from one address are few.
 * - `on a miss`: a look-up is refused when the address has no point left, and only one that finds
 *   nothing takes a point, after. Session tokens: many users behind one address (an office of workers
 *   behind one NAT) send their valid tokens at once whenever the caches are empty (a deploy), and with
 *   points taken before, the look-ups in flight past the limit were refused though every token was
 *   live (the webhook bench's 200 workers from 127.0.0.1 got 429s). A burst of made-up tokens may pass
 *   the check together, by as many as it sends at once; it then pays for each, so the limit holds
 *   from the next look-up on.
 */
const SECRETS = {
  apiKey: { counter: 'apikey-unknown', refusal: 'too many unknown API keys from this address', pays: 'before' },
  sessionToken: { counter: 'session-unknown', refusal: 'too many unknown session tokens from this address', pays: 'on a miss' },
} as const;

export type SecretKind = keyof typeof SECRETS;

/**
 * Limits the database look-ups of secrets that no cache knows, API keys (ApiKeysService) and session
 * tokens (SessionsService, for SessionGuard), per client address (request.ip, see TRUST_PROXY; an IPv6
 * address counts under its /64, as for log-ins): each takes a point of its kind before the database is
 * asked, a secret that exists gives it back, so only unknown secrets count, at most
 * FAILED_API_KEYS_PER_ADDRESS_PER_MINUTE of each kind. Past that the address's look-ups of that kind
 * answer 429 with Retry-After, asking nothing, until the window ends. Counted in Redis, shared by every
 * HTTP node, with the in-process stand-in while Redis is away (redis-limiter.ts).
 */
@Injectable()
export class SecretLookupThrottle {
  private readonly perAddress: Record<SecretKind, RateLimiterRedis>;
  private readonly points: number;

  constructor(@Inject(REDIS) redis: RedisClient, @Inject(APP_CONFIG) config: AppConfig) {
    this.points = config.FAILED_API_KEYS_PER_ADDRESS_PER_MINUTE;
    const limiter = (kind: SecretKind) =>
      redisLimiter(redis, `${config.REDIS_PREFIX}:${SECRETS[kind].counter}`, config.FAILED_API_KEYS_PER_ADDRESS_PER_MINUTE, WINDOW_SECONDS);
    this.perAddress = { apiKey: limiter('apiKey'), sessionToken: limiter('sessionToken') };
  }

  /**
   * Runs `find`, the database look-up of a secret of `kind`, unless the address has no point of `kind`
   * left (429 with Retry-After, `find` not run). A look-up that answers undefined (an unknown secret)
   * costs a point; one that finds the secret, or fails (nothing was learnt), costs none. When the point
   * is taken depends on the kind (SECRETS, `pays`).
   */
  async counted<T>(kind: SecretKind, address: string, find: () => Promise<T | undefined>): Promise<T | undefined> {
    const limiter = this.perAddress[kind];
    const key = clientAddressKey(address);
    if (SECRETS[kind].pays === 'on a miss') {
      const spent = await limiter.get(key);
      if (spent && spent.consumedPoints >= this.points) throw tooManyRequests(SECRETS[kind].refusal, spent.msBeforeNext);
      const found = await find();
      if (found === undefined) await limiter.penalty(key);
      return found;
    }
    const windowEndsAt = await takePoint(limiter, key, SECRETS[kind].refusal);
    // Only into the window the point came from: past its end a reward would start the next one below zero.
    const giveBack = async () => {
      if (Date.now() < windowEndsAt) await limiter.reward(key);
    };
    let found: T | undefined;
    try {
      found = await find();
    } catch (error) {
      await giveBack();
      throw error;
    }
    if (found !== undefined) await giveBack();
    return found;
  }
}
