import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { ConnectionOptions } from 'bullmq';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { createRedisClient, redisOptionsFromUrl, redisUrls, type RedisClient } from './redis-client';

export const REDIS = Symbol('REDIS');
/** What BullMQ's workers connect with (QueuesModule); see the provider below. */
export const BULLMQ_CONNECTION = Symbol('BULLMQ_CONNECTION');

/**
 * The shared client for rate limits, small caches and the jobs that requests add and remove
 * (queues/producer-queues.ts; BullMQ's workers keep connections of their own). Commands fail fast
 * while Redis is away (no offline queue) so callers can fall back instead of hanging, and fail after
 * REDIS_COMMAND_TIMEOUT_MS when Redis is there but does not answer (stuck, paused, a network that drops
 * packets): a request then falls back as it does without Redis, instead of waiting as long as Redis
 * does. A command that timed out may still run; every caller tolerates that (a job's add is keyed by
 * its id, a limit's point is one more or less). Auto-pipelining
 * sends the commands of one tick as one write: it halved Redis's CPU per add_task (docs/performance.md,
 * add_task "What was done" 6) and took the checkout + submit cycle from 2 Redis writes to 0.48.
 */
const sharedClient = {
  provide: REDIS,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig): RedisClient =>
    createRedisClient(config, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
      commandTimeout: config.REDIS_COMMAND_TIMEOUT_MS,
      keepAlive: 10_000,
      enableAutoPipelining: true,
    }),
};

/**
 * BullMQ's workers block on Redis and must wait through reconnects rather than fail a command
 * (maxRetriesPerRequest null). On one node BullMQ is given options and opens and closes each worker's
 * connections itself. It cannot build a cluster client from options, so for a cluster it is given one
 * client, which every worker shares (each still duplicates it for its blocking reads) and which this
 * module closes.
 */
const bullConnection = {
  provide: BULLMQ_CONNECTION,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig): ConnectionOptions =>
    config.REDIS_CLUSTER
      ? createRedisClient(config, { maxRetriesPerRequest: null })
      : { ...redisOptionsFromUrl(redisUrls(config.REDIS_URL)[0]), maxRetriesPerRequest: null },
};

@Global()
@Module({
  providers: [sharedClient, bullConnection],
  exports: [REDIS, BULLMQ_CONNECTION],
})
export class RedisModule implements OnApplicationShutdown {
  constructor(
    @Inject(REDIS) private readonly redis: RedisClient,
    @Inject(BULLMQ_CONNECTION) private readonly bullmq: ConnectionOptions,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    const clients = [this.redis, ...(isClient(this.bullmq) ? [this.bullmq] : [])];
    await Promise.all(clients.map((client) => client.quit().catch(() => client.disconnect())));
  }
}

function isClient(connection: ConnectionOptions): connection is RedisClient {
  return typeof (connection as RedisClient).quit === 'function';
}
