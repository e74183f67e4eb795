import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { deleteInBatches, HourlyHousekeeping } from '../common/hourly-pass';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';

/**
 * Deletes the delivery log's ended events (delivered or failed) once they are older than
 * WEBHOOK_EVENT_RETENTION_DAYS, and their attempts with them (ON DELETE CASCADE). The outbox gets a row
 * per completion and the attempts one more per try, so without this the two tables grow for as long as
 * the service runs. Pending events are never deleted: they are work still to do. Walks each account's
 * events oldest first on the index the console's log reads (account, created_at), so a pass costs no new
 * index on the completion's path. Safe with several jobs processes: a row another pass deleted first is
 * skipped. Runs in roles jobs and all (docs/webhooks.md §6).
 */
@Injectable()
export class EventRetention extends HourlyHousekeeping {
  private readonly logger = new Logger(EventRetention.name);
  private running = false;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  protected override enabled(): boolean {
    return this.config.WEBHOOK_EVENT_RETENTION_DAYS !== 0;
  }

  /**
   * One pass: deletes ended events created before `now - retention`, a batch at a time until none is
   * left. Returns how many it deleted; 0 when retention is off or a pass is already running.
   */
  async prune(): Promise<number> {
    const days = this.config.WEBHOOK_EVENT_RETENTION_DAYS;
    if (days === 0 || this.running) return 0;
    this.running = true;
    try {
      return await deleteInBatches(
        this.db,
        this.logger,
        `webhook events older than ${days} days, with their attempts`,
        // `state <> 'pending'` again outside: the subquery locks nothing, and a DELETE that waited for a
        // row re-checks only its own WHERE on the version it then finds, so an event a redeliver made
        // pending meanwhile would go (with the job the redeliver queued for it) without this.
        `DELETE FROM webhook_events WHERE state <> 'pending' AND id IN (
           SELECT old.id FROM accounts a
            CROSS JOIN LATERAL (
              SELECT e.id FROM webhook_events e
               WHERE e.account_id = a.id AND e.created_at < now() - make_interval(days => $1) AND e.state <> 'pending'
               ORDER BY e.created_at LIMIT $2
            ) old
            LIMIT $2)`,
        [days],
      );
    } finally {
      this.running = false;
    }
  }
}
