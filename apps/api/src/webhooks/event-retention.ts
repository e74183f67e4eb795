import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { deleteInBatches, Housekeeping } from '../common/housekeeping';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';

/**
 * One batch of the pass: $1 the retention in days, $2 the batch size. `state <> 'pending'` again
 * outside: the subquery locks nothing, and a DELETE that waited for a row re-checks only its own WHERE
 * on the version it then finds, so an event a redeliver made pending meanwhile would go (with the job
 * the redeliver queued for it) without this. Exported for the test of its plan.
 */
export const PRUNE_ENDED_EVENTS = `
  DELETE FROM webhook_events WHERE state <> 'pending' AND id IN (
    SELECT old.id FROM (SELECT DISTINCT account_id AS id FROM webhook_endpoints) a
     CROSS JOIN LATERAL (
       SELECT e.id FROM webhook_events e
        WHERE e.account_id = a.id AND e.created_at < now() - make_interval(days => $1) AND e.state <> 'pending'
        ORDER BY e.created_at LIMIT $2
     ) old
     LIMIT $2)`;

/**
 * One batch of events abandoned with their address: parked (pending, no next attempt) for an address
 * that failed its challenge, and older than the retention ($1 days). They wait for a later add_task to
 * re-arm the address; one that has not come within the retention is not coming for them, and without
 * this each such address kept a row of every later completion for good. FOR SHARE on the address: a
 * re-arm (an UPDATE of that row) waits for the batch, and a batch finds a re-armed address no longer
 * failed, so no event is deleted that a confirmation is about to release. The outer conditions are
 * re-checked on the row a concurrent release changed. Exported for its test.
 */
export const PRUNE_ABANDONED_EVENTS = `
  DELETE FROM webhook_events WHERE state = 'pending' AND next_attempt_at IS NULL AND id IN (
    SELECT parked.id FROM (SELECT id FROM webhook_endpoints WHERE state = 'failed' FOR SHARE) ep
     CROSS JOIN LATERAL (
       SELECT e.id FROM webhook_events e
        WHERE e.endpoint_id = ep.id AND e.state = 'pending' AND e.next_attempt_at IS NULL
          AND e.created_at < now() - make_interval(days => $1)
        LIMIT $2
     ) parked
     LIMIT $2)`;

/**
 * Deletes the delivery log's ended events (delivered or failed) once they are older than
 * WEBHOOK_EVENT_RETENTION_DAYS, and their attempts with them (ON DELETE CASCADE). The outbox gets a row
 * per completion and the attempts one more per try, so without this the two tables grow for as long as
 * the service runs. Pending events are kept, as work still to do, but for those waiting for an address
 * that failed its challenge, once they are as old (PRUNE_ABANDONED_EVENTS). Walks each account's
 * events oldest first on the index the console's log reads (account, created_at), so a pass costs no new
 * index on the completion's path. The accounts walked are those with a callback address (every event is
 * for one, and addresses are never deleted), not every account: each crowd worker's sign-up makes an
 * account, and probing a million of them for every batch of a thousand deletions made a pass cost about
 * a second per batch. Safe with several jobs processes: a row another pass deleted first is skipped.
 * Runs in roles jobs and all (docs/webhooks.md §6).
 */
@Injectable()
export class EventRetention extends Housekeeping {
  private readonly logger = new Logger(EventRetention.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  protected override enabled(): boolean {
    return this.config.WEBHOOK_EVENT_RETENTION_DAYS !== 0;
  }

  /** Deletes ended events created before `now - retention`, then abandoned ones, a batch at a time until none is left. */
  protected async pass(): Promise<number> {
    const days = this.config.WEBHOOK_EVENT_RETENTION_DAYS;
    const stopping = () => this.stopping();
    const ended = await deleteInBatches(this.db, this.logger, `webhook events older than ${days} days, with their attempts`, PRUNE_ENDED_EVENTS, [days], stopping);
    const abandoned = await deleteInBatches(
      this.db,
      this.logger,
      `webhook events older than ${days} days waiting for an address that failed its challenge`,
      PRUNE_ABANDONED_EVENTS,
      [days],
      stopping,
    );
    return ended + abandoned;
  }
}
