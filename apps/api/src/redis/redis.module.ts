import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';

export const REDIS = Symbol('REDIS');

/**
 * The shared ioredis client for rate limits, small caches and the jobs that requests add and remove
 * (queues/producer-queues.ts; BullMQ's workers keep connections of their own). Commands fail fast
 * while Redis is away (no offline queue) so callers can fall back instead of hanging. Auto-pipelining
 * sends the commands of one tick as one write: it halved Redis's CPU per add_task (docs/performance.md,
 * add_task "What was done" 6) and took the checkout + submit cycle from 2 Redis writes to 0.48.
 */
@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) =>
        new Redis(config.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000, enableAutoPipelining: true }),
    },
  ],
  exports: [REDIS],
})
export class RedisModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
