import { Inject, Injectable } from '@nestjs/common';
import type { RedisClient } from '../redis/redis-client';
import { RateLimiterRes, type RateLimiterRedis } from 'rate-limiter-flexible';
import { clientAddressKey } from '../common/http/client-address-key';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { REDIS } from '../redis/redis.module';
import { redisLimiter, tooManyRequests } from './redis-limiter';

/** Wrong passwords allowed per email and client address in a window: a person mistyping never meets it. */
export const FAILURES_PER_ADDRESS = 10;
/** …and per email from all addresses together: guessing from many addresses at once. */
export const FAILURES_PER_EMAIL = 100;
const WINDOW_SECONDS = 15 * 60;

/** What one log-in took from the counts: it keeps it if its password was wrong, else gives it back. */
export interface LoginAttempt {
  /** The password was right: this address's count for the email is cleared, the other points given back. */
  succeeded(): Promise<void>;
  /** Nothing was learnt about the password (an error before the answer): every point is given back. */
  release(): Promise<void>;
}

/** One count a log-in falls under: the email's from this address, the email's, or this address's. */
interface Count {
  limiter: RateLimiterRedis;
  key: string;
  /** What a refused log-in is told is used up. */
  scope: 'email' | 'address';
}

/** One point taken from one count, and when the window it was taken from ends (ms since the epoch). */
interface Taken extends Count {
  windowEndsAt: number;
}

/**
 * Limits password guessing: failed log-ins are counted per email and client address, per email, and per
 * client address whatever the email (FAILED_LOGINS_PER_ADDRESS_PER_15_MINUTES: one address spraying a
 * password across many emails), in Redis (shared by every HTTP node; an in-process stand-in while Redis
 * is away, as for API keys). Past a limit the email (or, for the last, the address) answers 429 with
 * Retry-After until the window ends, whether or not the next password is right. A log-in takes its point from every count before its password is checked (reserve),
 * atomically per count, so a burst of parallel guesses cannot all pass before the first failure is
 * recorded: at most the limit's number of passwords are ever checked per window. A wrong password keeps
 * its point; a right one gives it back and clears its address's count, so sign-ups and successful
 * log-ins cost nothing here. The client address is Fastify's request.ip, which takes X-Forwarded-For only
 * from the proxies TRUST_PROXY names (by default one on loopback), so a client that connects directly
 * cannot pick a new address per guess (docs/decisions.md, "Forwarded headers are believed from loopback
 * only"); an IPv6 address is counted under its /64 (clientAddressKey), so a client cannot take a new one
 * per guess from its own /64 either.
 */
@Injectable()
export class LoginThrottle {
  private readonly perEmailAndAddress: RateLimiterRedis;
  private readonly perEmail: RateLimiterRedis;
  private readonly perAddress: RateLimiterRedis;

  constructor(@Inject(REDIS) redis: RedisClient, @Inject(APP_CONFIG) config: AppConfig) {
    this.perEmailAndAddress = redisLimiter(redis, `${config.REDIS_PREFIX}:login-address`, FAILURES_PER_ADDRESS, WINDOW_SECONDS);
    this.perEmail = redisLimiter(redis, `${config.REDIS_PREFIX}:login-email`, FAILURES_PER_EMAIL, WINDOW_SECONDS);
    this.perAddress = redisLimiter(
      redis,
      `${config.REDIS_PREFIX}:login-any-email`,
      config.FAILED_LOGINS_PER_ADDRESS_PER_15_MINUTES,
      WINDOW_SECONDS,
    );
  }

  /**
   * Takes this log-in's point from every count it falls under, or throws 429 with Retry-After when one is
   * used up (giving back what it took: a refused log-in checks no password, so it is no guess).
   */
  async reserve(email: string, address: string): Promise<LoginAttempt> {
    // The first is the one a success clears.
    const counts: Count[] = [
      { limiter: this.perEmailAndAddress, key: `${email}|${clientAddressKey(address)}`, scope: 'email' },
      { limiter: this.perEmail, key: email, scope: 'email' },
      { limiter: this.perAddress, key: clientAddressKey(address), scope: 'address' },
    ];
    const results = await Promise.allSettled(counts.map(({ limiter, key }) => limiter.consume(key)));
    const taken: Taken[] = [];
    const refused: Array<{ res: RateLimiterRes; scope: Count['scope'] }> = [];
    let error: unknown;
    results.forEach((result, i) => {
      // A refusal counted its point too (the count went past the limit), so it is given back as well.
      const res = result.status === 'fulfilled' ? result.value : result.reason;
      if (!(res instanceof RateLimiterRes)) {
        error ??= res;
        return;
      }
      taken.push({ ...counts[i], windowEndsAt: Date.now() + res.msBeforeNext });
      if (result.status === 'rejected') refused.push({ res, scope: counts[i].scope });
    });
    if (error !== undefined || refused.length > 0) {
      await giveBack(taken);
      if (error !== undefined) throw error;
      const what = refused.some(({ scope }) => scope === 'email') ? 'for this email' : 'from this address';
      throw tooManyRequests(`too many failed log-ins ${what}`, Math.max(...refused.map(({ res }) => res.msBeforeNext)));
    }
    const [mine, ...others] = taken;
    return {
      succeeded: async () => {
        await Promise.all([mine.limiter.delete(mine.key), giveBack(others)]);
      },
      release: () => giveBack(taken),
    };
  }
}

/**
 * Gives each point back, but only into the window it was taken from: past its end, a reward would create
 * the next window's key below zero and allow more than the limit there (as in SignupThrottle).
 */
async function giveBack(taken: Taken[]): Promise<void> {
  const now = Date.now();
  await Promise.all(taken.filter(({ windowEndsAt }) => now < windowEndsAt).map(({ limiter, key }) => limiter.reward(key)));
}
