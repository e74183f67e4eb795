import { QUEUES } from '@crowdbox/contracts';
import { BullModule } from '@nestjs/bullmq';
import type { ConnectionOptions } from 'bullmq';
import { Global, Module } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { LoggedQueue, LoggedWorker } from './logged-bull-classes';
import { FINISHED_JOBS, ProducerQueues } from './producer-queues';
import { bullPrefix } from '../redis/redis-client';
import { BULLMQ_CONNECTION } from '../redis/redis.module';

// Before BullModule.registerQueue below, which takes the class when it is called. Every queue and
// worker @nestjs/bullmq builds then logs its errors through the JSON log, at most once a minute each
// (bull-error-log.ts), instead of BullMQ printing them with console.error.
BullModule.queueClass = LoggedQueue;
BullModule.workerClass = LoggedWorker;

/**
 * BullMQ on the configured Redis, every queue of libs/contracts QUEUES registered once: their
 * processors are added by each feature only for `--role=jobs|all` (see WorkModule.register). Every
 * role adds and removes jobs through ProducerQueues, on the shared auto-pipelined client.
 */
@Global()
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [APP_CONFIG, BULLMQ_CONNECTION],
      useFactory: (config: AppConfig, connection: ConnectionOptions) => ({
        connection,
        prefix: bullPrefix(config),
        // Jobs are added through ProducerQueues; the same removal here, should anything add through these.
        defaultJobOptions: FINISHED_JOBS,
      }),
    }),
    BullModule.registerQueue(...Object.values(QUEUES).map((name) => ({ name }))),
  ],
  providers: [ProducerQueues],
  exports: [BullModule, ProducerQueues],
})
export class QueuesModule {}
