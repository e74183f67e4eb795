import { Inject, Injectable } from '@nestjs/common';
import type { RedisClient } from '../redis/redis-client';
import type { RateLimiterRedis } from 'rate-limiter-flexible';
import { clientAddressKey } from '../common/http/client-address-key';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { REDIS } from '../redis/redis.module';
import { redisLimiter, takePoint } from './redis-limiter';

/** The window of FAILED_API_KEYS_PER_ADDRESS_PER_MINUTE. */
const WINDOW_SECONDS = 60;

/**
 * The secrets whose look-ups are limited, each counted apart under its own Redis key (one kind's flood
 * does not refuse the other's), with the words of its 429.
 */
const SECRETS = {
  apiKey: { counter: 'apikey-unknown', refusal: 'too many unknown API keys from this address' },
  sessionToken: { counter: 'session-unknown', refusal: 'too many unknown session tokens from this address' },
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

  constructor(@Inject(REDIS) redis: RedisClient, @Inject(APP_CONFIG) config: AppConfig) {
    const limiter = (kind: SecretKind) =>
      redisLimiter(redis, `${config.REDIS_PREFIX}:${SECRETS[kind].counter}`, config.FAILED_API_KEYS_PER_ADDRESS_PER_MINUTE, WINDOW_SECONDS);
    this.perAddress = { apiKey: limiter('apiKey'), sessionToken: limiter('sessionToken') };
  }

  /**
   * Runs `find`, the database look-up of a secret of `kind`, at the price of one of the address's points
   * (429 with Retry-After, `find` not run, when it has none left). The point is given back when `find`
   * answers something, or fails (nothing was learnt about the secret); kept when it answers undefined.
   */
  async counted<T>(kind: SecretKind, address: string, find: () => Promise<T | undefined>): Promise<T | undefined> {
    const limiter = this.perAddress[kind];
    const key = clientAddressKey(address);
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
