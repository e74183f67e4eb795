import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { deleteInBatches, HourlyHousekeeping } from '../common/hourly-pass';
import { IDEMPOTENCY_WINDOW_HOURS } from './idempotency';

/**
 * Deletes Idempotency-Key records past their 24 hours, hourly: a stale one is never replayed
 * (idempotency.ts overwrites it on reuse), yet every keyed add_task left one for good, an add_tasks
 * one with up to 1,000 tasks' response. Runs in roles jobs and all; safe with several such processes.
 */
@Injectable()
export class IdempotencyPruning extends HourlyHousekeeping {
  private readonly logger = new Logger(IdempotencyPruning.name);

  constructor(@InjectDataSource() private readonly db: DataSource) {
    super();
  }

  /** One pass: how many stale records it deleted. */
  protected pass(): Promise<number> {
    return deleteInBatches(
      this.db,
      this.logger,
      `Idempotency-Key records older than ${IDEMPOTENCY_WINDOW_HOURS} hours`,
      `DELETE FROM idempotency_keys WHERE ctid IN (
         SELECT ctid FROM idempotency_keys WHERE created_at < now() - make_interval(hours => $1) LIMIT $2)`,
      [IDEMPOTENCY_WINDOW_HOURS],
      () => this.stopping(),
    );
  }
}
