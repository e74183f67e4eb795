import { Inject, Injectable } from '@nestjs/common';
import type { RedisClient } from '../redis/redis-client';
import type { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { ApiException } from '../common/errors/api.exception';
import { clientAddressKey } from '../common/http/client-address-key';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { REDIS } from '../redis/redis.module';
import { redisLimiter } from './redis-limiter';

/** Wrong passwords allowed per email and client address in a window: a person mistyping never meets it. */
export const FAILURES_PER_ADDRESS = 10;
/** …and per email from all addresses together: guessing from many addresses at once. */
export const FAILURES_PER_EMAIL = 100;
const WINDOW_SECONDS = 15 * 60;

/**
 * Limits password guessing: failed log-ins are counted per email and client address, and per email, in
 * Redis (shared by every HTTP node; an in-process stand-in while Redis is away, as for API keys). Past
 * either limit the email answers 429 with Retry-After until the window ends, whether or not the next
 * password is right. Only failures count, so sign-ups and successful log-ins cost nothing here, and a
 * success clears its address's count. The client address is Fastify's request.ip, which takes
 * X-Forwarded-For only from the proxies TRUST_PROXY names (by default one on loopback), so a client that
 * connects directly cannot pick a new address per guess (docs/decisions.md, "Forwarded headers are
 * believed from loopback only"); an IPv6 address is counted under its /64 (clientAddressKey), so a
 * client cannot take a new one per guess from its own /64 either.
 */
@Injectable()
export class LoginThrottle {
  private readonly perAddress: RateLimiterRedis;
  private readonly perEmail: RateLimiterRedis;

  constructor(@Inject(REDIS) redis: RedisClient, @Inject(APP_CONFIG) config: AppConfig) {
    this.perAddress = redisLimiter(redis, `${config.REDIS_PREFIX}:login-address`, FAILURES_PER_ADDRESS, WINDOW_SECONDS);
    this.perEmail = redisLimiter(redis, `${config.REDIS_PREFIX}:login-email`, FAILURES_PER_EMAIL, WINDOW_SECONDS);
  }

  /** Throws 429 when this email, from this address or from all, has used up its failures. */
  async check(email: string, address: string): Promise<void> {
    const [mine, all] = await Promise.all([this.perAddress.get(perAddressKey(email, address)), this.perEmail.get(email)]);
    const blocked = [mine && mine.consumedPoints >= FAILURES_PER_ADDRESS && mine, all && all.consumedPoints >= FAILURES_PER_EMAIL && all]
      .filter((res): res is RateLimiterRes => Boolean(res))
      .map((res) => res.msBeforeNext);
    if (blocked.length === 0) return;
    const seconds = Math.max(1, Math.ceil(Math.max(...blocked) / 1000));
    throw ApiException.of(429, 'root', `too many failed log-ins for this email; retry in ${seconds} s`, { 'retry-after': String(seconds) });
  }

  async failed(email: string, address: string): Promise<void> {
    // Penalties never throw for being over the limit; the next check answers 429.
    await Promise.all([this.perAddress.penalty(perAddressKey(email, address)), this.perEmail.penalty(email)]);
  }

  async succeeded(email: string, address: string): Promise<void> {
    await this.perAddress.delete(perAddressKey(email, address));
  }
}

const perAddressKey = (email: string, address: string) => `${email}|${clientAddressKey(address)}`;
