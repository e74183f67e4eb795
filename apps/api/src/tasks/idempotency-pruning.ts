import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { HourlyPass } from '../common/hourly-pass';
import { IDEMPOTENCY_WINDOW_HOURS } from './idempotency';

/** Rows one statement deletes: short transactions beside the add_task calls. */
const BATCH = 1000;

/**
 * Deletes Idempotency-Key records past their 24 hours, hourly: a stale one is never replayed
 * (idempotency.ts overwrites it on reuse), yet every keyed add_task left one for good, an add_tasks
 * one with up to 1,000 tasks' response. Runs in roles jobs and all; safe with several such processes.
 */
@Injectable()
export class IdempotencyPruning implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(IdempotencyPruning.name);
  private readonly passes = new HourlyPass(() => this.prune());

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  onApplicationBootstrap(): void {
    this.passes.start();
  }

  onApplicationShutdown(): void {
    this.passes.stop();
  }

  /** One pass: how many stale records it deleted. */
  async prune(): Promise<number> {
    let deleted = 0;
    try {
      for (;;) {
        const [, count]: [unknown, number] = await this.db.query(
          `DELETE FROM idempotency_keys WHERE ctid IN (
             SELECT ctid FROM idempotency_keys WHERE created_at < now() - make_interval(hours => $1) LIMIT $2)`,
          [IDEMPOTENCY_WINDOW_HOURS, BATCH],
        );
        deleted += count;
        if (count < BATCH) return deleted;
      }
    } catch (error) {
      this.logger.warn(`idempotency key pruning stopped after ${deleted} records: ${(error as Error).message}`);
      return deleted;
    } finally {
      if (deleted > 0) this.logger.log(`deleted ${deleted} Idempotency-Key records older than ${IDEMPOTENCY_WINDOW_HOURS} hours`);
    }
  }
}
