import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each completing SUBMIT inserts its outbox event, and a foreign key makes every insert take a
 * FOR KEY SHARE lock on the row it points to. Two of webhook_events' three keys point at rows that every
 * completion of an account shares: the account and its callback address. Hundreds of completions in
 * flight locked those two rows at once, and PostgreSQL records each lock in the row (a WAL record) and
 * turns overlapping lockers into a multixact (another WAL record and pages of pg_multixact): ~0.8 new
 * multixacts per completed task in the webhook benchmark (docs/performance.md, "ninth session").
 *
 * The two keys guarded nothing the third does not: account_id and endpoint_id are written from the
 * task's own project and callback address by the statement that completes it, and an event goes with
 * its task (fk_webhook_events_task, ON DELETE CASCADE), a task with its project, a project with its
 * account. Nothing deletes an address but its account's deletion. An event whose address is gone reads
 * as one with no address (the delivery's LEFT JOIN), which is what ON DELETE SET NULL gave.
 * docs/decisions.md, "No foreign keys to rows every completion shares".
 */
export class EventsLockNoSharedRow1764900000000 implements MigrationInterface {
  name = 'EventsLockNoSharedRow1764900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_events DROP CONSTRAINT fk_webhook_events_account`);
    await q.query(`ALTER TABLE webhook_events DROP CONSTRAINT fk_webhook_events_endpoint`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE webhook_events ADD CONSTRAINT fk_webhook_events_account FOREIGN KEY (account_id) REFERENCES accounts (id) ON DELETE CASCADE`,
    );
    await q.query(
      `ALTER TABLE webhook_events ADD CONSTRAINT fk_webhook_events_endpoint FOREIGN KEY (endpoint_id) REFERENCES webhook_endpoints (id) ON DELETE SET NULL`,
    );
  }
}
