import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Two pages that read every row of their kind before the first 50, for want of an index in their order:
 * - the console's task list filtered to complete tasks (console/console-tasks.service.ts, newest first
 *   by created_at) read ix_tasks_project_completed, every complete task of the project, and sorted them
 *   for each page: at 5 million complete tasks, seconds a page. ix_tasks_complete matches the list's
 *   order as ix_tasks_open and ix_tasks_cancelled do for the other states;
 * - the webhook event log filtered to pending events (webhooks/webhooks-console.service.ts) walked the
 *   account's whole 30-day log, or every pending event of every account, during the very outage the
 *   filter is for. ix_webhook_events_pending_account matches it as ix_webhook_events_failed does failed.
 * Built CONCURRENTLY (outside a transaction), so submits and deliveries never wait for the build; a failed
 * concurrent build leaves an invalid index, so `up` first drops it.
 */
export class StatePageIndexes1767520000000 implements MigrationInterface {
  name = 'StatePageIndexes1767520000000';
  transaction = false as const;

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ix_tasks_complete`);
    await q.query(`CREATE INDEX CONCURRENTLY ix_tasks_complete ON tasks (project_id, created_at, id) WHERE completed_at IS NOT NULL`);
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ix_webhook_events_pending_account`);
    await q.query(
      `CREATE INDEX CONCURRENTLY ix_webhook_events_pending_account ON webhook_events (account_id, created_at, id) WHERE state = 'pending'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ix_webhook_events_pending_account`);
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ix_tasks_complete`);
  }
}
