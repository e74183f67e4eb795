import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { createHash } from 'node:crypto';
import type { RateLimiterRedis } from 'rate-limiter-flexible';
import { redisLimiter, takePoint } from '../auth/redis-limiter';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import type { RedisClient } from '../redis/redis-client';
import { REDIS } from '../redis/redis.module';
import { IDEMPOTENCY_WINDOW_HOURS, keyUsedWithAnotherBody } from '../tasks/idempotency';

const WINDOW_SECONDS = IDEMPOTENCY_WINDOW_HOURS * 3600;
/** Keys one process remembers while Redis is away. */
const STAND_IN_KEYS = 10_000;
/**
 * New keys an account's test keys may take in 24 h. Each is ~200 bytes of Redis for a day, so without a
 * bound an account sending the default 100 requests a second with a new key each would hold ~1.7 GB,
 * and a Redis that is full refuses every job. 10,000 is far beyond what testing an integration takes.
 */
export const TEST_KEYS_PER_DAY = 10_000;

/**
 * Idempotency-Key for test keys (docs/decisions.md, "Test keys: nothing is written, …"). A test key's
 * answer is already the same for the same body, so replay needs no memory; refusing the key with
 * another body does. Each key's request hash is kept in Redis for the same 24 h as a live key's record,
 * apart from those (a test key writes nothing to the database, and a live key must never replay a test
 * answer). While Redis is away, an in-process stand-in remembers them, as the rate limits' does.
 */
@Injectable()
export class TestIdempotency {
  private readonly prefix: string;
  private readonly standIn = new LRUCache<string, string>({ max: STAND_IN_KEYS, ttl: WINDOW_SECONDS * 1000 });
  private readonly newKeys: RateLimiterRedis;

  constructor(@Inject(REDIS) private readonly redis: RedisClient, @Inject(APP_CONFIG) config: AppConfig) {
    this.prefix = `${config.REDIS_PREFIX}:test-idempotency`;
    this.newKeys = redisLimiter(redis, `${config.REDIS_PREFIX}:test-idempotency-new`, TEST_KEYS_PER_DAY, WINDOW_SECONDS);
  }

  /**
   * `answer()` under `key`, as TasksService.once runs a live key's creation: the key is looked at first,
   * so a reused key is refused before the body is checked against the project, and taken only by an
   * answer that succeeded, so a refused body can be sent again fixed with the same key. Taking it is one
   * atomic SET NX GET, so of two bodies sent at once with one key, one is refused. `answer` is told
   * whether this is a replay (the key already held this body): the answer is computed again, and what
   * is checked only for a new request (that the project still takes tasks) must not refuse a replay.
   */
  async once<T>(accountId: string, key: string | undefined, hash: string, answer: (replay: boolean) => T): Promise<T> {
    if (key === undefined) return answer(false);
    // Hashed: an Idempotency-Key may be 255 characters of the requester's choosing.
    const slot = `${this.prefix}:${createHash('sha256').update(`${accountId}:${key}`).digest('base64url')}`;
    const held = await this.read(slot);
    refuseAnotherBody(held, hash);
    // A refused answer (a body the project does not take, an archived project) takes no new key, and so
    // none of the day's allowance: that bounds the keys held in Redis, and only an answer takes one.
    const result = answer(held !== undefined);
    if (held === undefined) await takePoint(this.newKeys, accountId, `more than ${TEST_KEYS_PER_DAY} new Idempotency-Keys with test keys in 24 h`);
    refuseAnotherBody(await this.take(slot, hash), hash);
    return result;
  }

  private async read(slot: string): Promise<string | undefined> {
    try {
      return (await this.redis.get(slot)) ?? undefined;
    } catch {
      return this.standIn.get(slot);
    }
  }

  /** Stores `hash` for the slot unless it holds one; answers the one it held. */
  private async take(slot: string, hash: string): Promise<string | undefined> {
    try {
      // NX with GET needs Redis 7, what docker-compose.yml runs.
      return (await this.redis.set(slot, hash, 'EX', WINDOW_SECONDS, 'NX', 'GET')) ?? undefined;
    } catch {
      const held = this.standIn.get(slot);
      if (held === undefined) this.standIn.set(slot, hash);
      return held;
    }
  }
}

function refuseAnotherBody(stored: string | undefined, hash: string): void {
  if (stored !== undefined && stored !== hash) throw keyUsedWithAnotherBody();
}
