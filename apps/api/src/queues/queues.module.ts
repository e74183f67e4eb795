import { QUEUES } from '@crowdbox/contracts';
import { BullModule } from '@nestjs/bullmq';
import { Global, Module } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { redisOptionsFromUrl } from './redis-connection';

/**
 * BullMQ on the configured Redis, every queue of libs/contracts QUEUES registered once. Queues are
 * available to every role (HTTP nodes enqueue); the processors are added by each feature only for
 * `--role=jobs|all` (see WorkModule.register).
 */
@Global()
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        connection: redisOptionsFromUrl(config.REDIS_URL),
        prefix: `${config.REDIS_PREFIX}:bull`,
        defaultJobOptions: { removeOnComplete: 1000, removeOnFail: 5000 },
      }),
    }),
    BullModule.registerQueue(...Object.values(QUEUES).map((name) => ({ name }))),
  ],
  exports: [BullModule],
})
export class QueuesModule {}
