import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { deleteInBatches, Housekeeping } from '../common/housekeeping';
import { IDEMPOTENCY_WINDOW_HOURS } from './idempotency';

/**
 * One batch of stale records ($1 the window in hours, $2 the batch size), oldest first through their
 * creation time's index (migration 1767400000000), then deleted by their row addresses (a TID scan;
 * `ctid IN (subquery)` joined the batch to a scan of the whole table). So each batch reads its own rows.
 * Exported for the test of its plan.
 */
export const PRUNE_IDEMPOTENCY_KEYS = `
  DELETE FROM idempotency_keys WHERE ctid = ANY (ARRAY(
    SELECT ctid FROM idempotency_keys WHERE created_at < now() - make_interval(hours => $1) ORDER BY created_at LIMIT $2))`;

/**
 * Deletes Idempotency-Key records past their 24 hours, hourly: a stale one is never replayed
 * (idempotency.ts overwrites it on reuse), yet every keyed add_task left one for good, an add_tasks
 * one with up to 1,000 tasks' response. Runs in roles jobs and all; safe with several such processes.
 */
@Injectable()
export class IdempotencyPruning extends Housekeeping {
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
      PRUNE_IDEMPOTENCY_KEYS,
      [IDEMPOTENCY_WINDOW_HOURS],
      () => this.stopping(),
    );
  }
}
