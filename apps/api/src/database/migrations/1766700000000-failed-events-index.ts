import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An account's failed webhook events, oldest or newest first: the console's event log filtered to
 * `failed` and "Redeliver failed" walked the account's whole log (30 days of every completion, tens of
 * millions of rows for a big requester) to find the few that failed, past the statement timeout. Only
 * failed rows are in it, so a delivery never writes it; a failure does, once. (Pending events have
 * their own partial indexes; `delivered` is most of the log, which ix_webhook_events_account_created
 * serves.) Built CONCURRENTLY; a failed build leaves an invalid index, so the step drops it first.
 */
export class FailedEventsIndex1766700000000 implements MigrationInterface {
  name = 'FailedEventsIndex1766700000000';
  transaction = false as const;

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ix_webhook_events_failed`);
    await q.query(`CREATE INDEX CONCURRENTLY ix_webhook_events_failed ON webhook_events (account_id, created_at, id) WHERE state = 'failed'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ix_webhook_events_failed`);
  }
}
