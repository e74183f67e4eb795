import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { RepeatedWarnings } from '../common/repeated-warnings';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { redisUrls, type RedisClient } from './redis-client';
import { REDIS } from './redis.module';

/** The in-process caches a write can invalidate in every process: API keys by secret hash, sessions by id, projects by id. */
export type InvalidatableCache = 'api-keys' | 'sessions' | 'projects';

/** What a process does with its own copy of one of those caches. */
export interface CacheHandle {
  /** Forgets the entries named by `keys`. */
  forget(keys: string[]): void;
  /** Forgets everything. */
  clear(): void;
}

interface Message {
  from: string;
  cache: InvalidatableCache;
  keys: string[];
}

/**
 * Revocations reach every process at once (docs/decisions.md): a write that makes cached entries wrong
 * (a key revoked, sessions ended, a project changed) calls `forget` once it has committed; this process
 * forgets them at once and PUBLISHes `{cache, keys}` on one channel under REDIS_PREFIX, which every
 * process (HTTP and jobs alike: each builds these caches) hears on a connection of its own and forgets
 * them too. Redis is the fast path only: a publish is not awaited, a failed one is logged (once a minute
 * per message), and CACHE_TTL_MS still bounds how long a process that missed it serves the old entry.
 * Only these writes publish; the hot paths that read the caches send nothing new to Redis.
 */
@Injectable()
export class CacheInvalidation implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(CacheInvalidation.name);
  private readonly warnings = new RepeatedWarnings(this.logger);
  private readonly caches = new Map<InvalidatableCache, CacheHandle>();
  /** This process's messages come back to it too; it has already forgotten their keys. */
  private readonly self = randomUUID();
  private readonly channel: string;
  private subscriber: Redis | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(REDIS) private readonly redis: RedisClient,
  ) {
    this.channel = `${config.REDIS_PREFIX}:cache-invalidation`;
  }

  /** Called by the service that owns `name`'s cache, once, when it is built. */
  register(name: InvalidatableCache, cache: CacheHandle): void {
    this.caches.set(name, cache);
  }

  /** Forgets `keys` of `name` here, now, and asks every other process to (fire and forget). Only after the change committed. */
  forget(name: InvalidatableCache, keys: string[]): void {
    if (keys.length === 0) return;
    this.caches.get(name)?.forget(keys);
    if (this.config.CACHE_TTL_MS === 0) return;
    const message: Message = { from: this.self, cache: name, keys };
    this.redis.publish(this.channel, JSON.stringify(message)).catch((error: Error) => this.warnings.report('publishing a cache invalidation', error));
  }

  onModuleInit(): void {
    if (this.config.CACHE_TTL_MS === 0) return;
    // A plain connection, also beside a cluster: a PUBLISH on any node of a cluster reaches the
    // subscribers of every node. ioredis's own resubscription is off: see `subscribe`.
    this.subscriber = new Redis(redisUrls(this.config.REDIS_URL)[0], {
      autoResubscribe: false,
      maxRetriesPerRequest: null,
      connectTimeout: 2000,
      keepAlive: 10_000,
    });
    this.subscriber.on('error', (error: Error & { syscall?: string }) => {
      // A lost connection is retried here and reported by /readyz through the shared client.
      if (error.syscall !== 'connect' && error.syscall !== 'read') this.warnings.report('cache invalidation subscriber', error);
    });
    this.subscriber.on('ready', () => void this.subscribe());
    this.subscriber.on('message', (channel: string, text: string) => {
      if (channel === this.channel) this.receive(text);
    });
  }

  async onApplicationShutdown(): Promise<void> {
    const subscriber = this.subscriber;
    this.subscriber = undefined;
    await subscriber?.quit().catch(() => subscriber.disconnect());
  }

  /**
   * On every connect and reconnect. While the connection was down (or before it first came up), other
   * processes may have published invalidations nobody delivered here, so once subscribed again every
   * invalidatable cache is cleared: they refill from the database on the next reads, which is cheap,
   * while an entry a missed message named would otherwise be served until CACHE_TTL_MS.
   */
  private async subscribe(): Promise<void> {
    const subscriber = this.subscriber;
    if (!subscriber) return;
    try {
      await subscriber.subscribe(this.channel);
    } catch (error) {
      // The connection dropped meanwhile; its next 'ready' subscribes again.
      this.warnings.report('cache invalidation subscribe', error as Error);
      return;
    }
    for (const cache of this.caches.values()) cache.clear();
  }

  private receive(text: string): void {
    let message: Message;
    try {
      message = JSON.parse(text) as Message;
    } catch {
      return;
    }
    if (message.from === this.self || !Array.isArray(message.keys)) return;
    this.caches.get(message.cache)?.forget(message.keys.filter((key): key is string => typeof key === 'string'));
  }
}
