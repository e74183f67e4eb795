import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import type { AppConfig } from '../config/config.schema';

/** A connection to the configured Redis: one node, or a Redis Cluster (REDIS_CLUSTER=true). */
export type RedisClient = Redis | Cluster;

/** What the app's clients set beyond where Redis is; the same names for one node and a cluster. */
export interface ClientSettings {
  enableOfflineQueue?: boolean;
  enableAutoPipelining?: boolean;
  maxRetriesPerRequest?: number | null;
  connectTimeout?: number;
  commandTimeout?: number;
  /** TCP keepalive's first probe after this many ms idle, so a Redis that vanished is noticed. */
  keepAlive?: number;
}

/** The URLs REDIS_URL lists: one, or with REDIS_CLUSTER several seed nodes separated by commas. */
export function redisUrls(value: string): string[] {
  return value
    .split(',')
    .map((url) => url.trim())
    .filter((url) => url.length > 0);
}

/** ioredis options from a redis:// or rediss:// URL: the node, its credentials, database and TLS. */
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
  };
}

/**
 * A new client of the configured Redis. For a cluster, the first URL's credentials and TLS apply to
 * every node (a cluster's nodes share them), and the nodes listed are only where discovery starts:
 * ioredis learns the rest, and follows MOVED and ASK redirections while slots move.
 */
export function createRedisClient(config: Pick<AppConfig, 'REDIS_URL' | 'REDIS_CLUSTER'>, settings: ClientSettings): RedisClient {
  const urls = redisUrls(config.REDIS_URL);
  if (!config.REDIS_CLUSTER) return new Redis(urls[0], settings);

  const seeds = urls.map(redisOptionsFromUrl);
  const { host: _host, port: _port, db: _db, ...shared } = seeds[0];
  const { enableOfflineQueue, enableAutoPipelining, ...perNode } = settings;
  const options: ClusterOptions = {
    enableOfflineQueue,
    enableAutoPipelining,
    redisOptions: { ...shared, ...perNode },
    // With TLS the nodes announce addresses that are not the names on their certificates; connecting
    // by the announced address as given is what managed clusters (ElastiCache, Memorystore) expect.
    ...(shared.tls ? { dnsLookup: (address: string, callback: (err: null, address: string) => void) => callback(null, address) } : {}),
  };
  return new Cluster(
    seeds.map(({ host, port }) => ({ host, port })),
    options,
  );
}

/**
 * Where BullMQ keeps its keys: the same for the queues' producers and their workers. In a cluster the
 * prefix is a hash tag, so all the keys of a queue (which its Lua scripts touch together) share one slot.
 */
export function bullPrefix(config: Pick<AppConfig, 'REDIS_PREFIX' | 'REDIS_CLUSTER'>): string {
  return config.REDIS_CLUSTER ? `{${config.REDIS_PREFIX}:bull}` : `${config.REDIS_PREFIX}:bull`;
}
