import type { RedisOptions } from 'ioredis';
import type { AppConfig } from '../config/config.schema';

/** Where BullMQ keeps its keys: the same for the queues' producers and their workers. */
export function bullPrefix(config: AppConfig): string {
  return `${config.REDIS_PREFIX}:bull`;
}

/** ioredis options from a redis:// or rediss:// URL (BullMQ takes options, not a URL). */
export function redisOptionsFromUrl(url: string): RedisOptions {
  const parsed = new URL(url);
  const db = parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : 0;
  return {
    host: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : 6379,
    username: parsed.username ? decodeURIComponent(parsed.username) : undefined,
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
    db: Number.isInteger(db) ? db : 0,
    tls: parsed.protocol === 'rediss:' ? {} : undefined,
    // BullMQ's workers block on Redis and must wait through reconnects rather than fail a command.
    maxRetriesPerRequest: null,
  };
}
