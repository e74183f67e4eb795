import { Inject, Injectable } from '@nestjs/common';
import type { RedisClient } from '../redis/redis-client';
import type { RateLimiterRedis } from 'rate-limiter-flexible';
import { ApiException } from '../common/errors/api.exception';
import { clientAddressKey } from '../common/http/client-address-key';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { REDIS } from '../redis/redis.module';
import { redisLimiter, takePoint } from './redis-limiter';

/** The window of SIGNUPS_PER_ADDRESS_PER_HOUR, the accounts one client address may create. */
const WINDOW_SECONDS = 60 * 60;

/**
 * Limits account creation per client address (request.ip, see TRUST_PROXY; an IPv6 address counts under
 * its /64, see clientAddressKey), counted in Redis and shared by every HTTP node, with an in-process
 * stand-in while Redis is away, as LoginThrottle does. A sign-up takes its point before the account is
 * written, so parallel requests cannot overshoot. It keeps the point when it was answered, the account
 * created or refused (the email is taken: "is already registered" tells the client the email has an
 * account, so each such answer counts, or one address could probe emails without end, each probe a
 * password hash); it gives it back only when it failed with an error that told the client nothing (a
 * database error). The limit, SIGNUPS_PER_ADDRESS_PER_HOUR (20 by default),
 * is more than a household or a small team signs up in an hour, while a script creating accounts meets it
 * at once; a deployment where a larger group signs up from behind one address (a classroom) raises it.
 */
@Injectable()
export class SignupThrottle {
  private readonly perAddress: RateLimiterRedis;

  constructor(@Inject(REDIS) redis: RedisClient, @Inject(APP_CONFIG) config: AppConfig) {
    this.perAddress = redisLimiter(redis, `${config.REDIS_PREFIX}:signup-address`, config.SIGNUPS_PER_ADDRESS_PER_HOUR, WINDOW_SECONDS);
  }

  /** Runs `create` if this address has sign-ups left in the window, else throws 429 with Retry-After. */
  async limit<T>(address: string, create: () => Promise<T>): Promise<T> {
    const key = clientAddressKey(address);
    const windowEndsAt = await takePoint(this.perAddress, key, 'too many sign-ups from this address');
    try {
      return await create();
    } catch (error) {
      // An ApiException answered the request (the email is taken) and keeps its point.
      if (error instanceof ApiException) throw error;
      // Only into the window the point came from: past its end, a reward would create the next window's
      // key below zero and allow more than the limit there (a client can time that: Retry-After says when).
      if (Date.now() < windowEndsAt) await this.perAddress.reward(key);
      throw error;
    }
  }
}
