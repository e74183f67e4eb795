import { QUEUES } from '@crowdbox/contracts';
import { BullModule } from '@nestjs/bullmq';
import { Global, Module } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { ProducerQueues } from './producer-queues';
import { bullPrefix, redisOptionsFromUrl } from './redis-connection';

/**
 * BullMQ on the configured Redis, every queue of libs/contracts QUEUES registered once: their
 * processors are added by each feature only for `--role=jobs|all` (see WorkModule.register). Every
 * role adds and removes jobs through ProducerQueues, on the shared auto-pipelined client.
 */
@Global()
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        connection: redisOptionsFromUrl(config.REDIS_URL),
        prefix: bullPrefix(config),
        defaultJobOptions: { removeOnComplete: 1000, removeOnFail: 5000 },
      }),
    }),
    BullModule.registerQueue(...Object.values(QUEUES).map((name) => ({ name }))),
  ],
  providers: [ProducerQueues],
  exports: [BullModule, ProducerQueues],
})
export class QueuesModule {}
