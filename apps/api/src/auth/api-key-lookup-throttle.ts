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

/** A look-up's point: kept when the secret turned out unknown, given back otherwise. */
export interface KeyLookup {
  release(): Promise<void>;
}

/**
 * Limits the database look-ups of API-key secrets that no cache knows, per client address (request.ip,
 * see TRUST_PROXY; an IPv6 address counts under its /64, as for log-ins): each takes a point before the
 * database is asked, a secret that exists gives it back, so only unknown secrets count, at most
 * FAILED_API_KEYS_PER_ADDRESS_PER_MINUTE of them. Past that the address's look-ups answer 429 with
 * Retry-After, asking nothing, until the window ends. Counted in Redis, shared by every HTTP node, with
 * the in-process stand-in while Redis is away (redis-limiter.ts).
 */
@Injectable()
export class ApiKeyLookupThrottle {
  private readonly perAddress: RateLimiterRedis;

  constructor(@Inject(REDIS) redis: RedisClient, @Inject(APP_CONFIG) config: AppConfig) {
    this.perAddress = redisLimiter(redis, `${config.REDIS_PREFIX}:apikey-unknown`, config.FAILED_API_KEYS_PER_ADDRESS_PER_MINUTE, WINDOW_SECONDS);
  }

  /** Takes this look-up's point, or throws 429 with Retry-After when the address has none left. */
  async reserve(address: string): Promise<KeyLookup> {
    const key = clientAddressKey(address);
    const windowEndsAt = await takePoint(this.perAddress, key, 'too many unknown API keys from this address');
    return {
      // Only into the window the point came from: past its end a reward would start the next one below zero.
      release: async () => {
        if (Date.now() < windowEndsAt) await this.perAddress.reward(key);
      },
    };
  }
}
