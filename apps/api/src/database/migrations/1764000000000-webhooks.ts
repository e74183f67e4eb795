import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook delivery (API.md §2): each task points at its account's normalized callback address, and
 * addresses and events carry their retry schedule, so the database (not Redis) is the record of what
 * is still owed; the outbox relay rebuilds BullMQ jobs from it.
 */
export class Webhooks1764000000000 implements MigrationInterface {
  name = 'Webhooks1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tasks ADD callback_endpoint_id uuid`);
    await q.query(
      `ALTER TABLE tasks ADD CONSTRAINT fk_tasks_callback_endpoint FOREIGN KEY (callback_endpoint_id) REFERENCES webhook_endpoints (id) ON DELETE SET NULL`,
    );
    await q.query(`ALTER TABLE webhook_endpoints ADD attempt_count integer NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE webhook_endpoints ADD next_attempt_at timestamptz`);
    await q.query(`ALTER TABLE webhook_endpoints ADD last_error text`);
    await q.query(`CREATE INDEX ix_webhook_endpoints_state_next ON webhook_endpoints (state, next_attempt_at)`);
    await q.query(`ALTER TABLE webhook_events ADD task_id uuid`);
    await q.query(
      `ALTER TABLE webhook_events ADD CONSTRAINT fk_webhook_events_task FOREIGN KEY (task_id) REFERENCES tasks (id) ON DELETE CASCADE`,
    );
    await q.query(`ALTER TABLE webhook_events ADD last_error text`);
    await q.query(`ALTER TABLE webhook_events ADD body text`);
    await q.query(`CREATE INDEX ix_webhook_events_endpoint_state ON webhook_events (endpoint_id, state)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ix_webhook_events_endpoint_state`);
    await q.query(`ALTER TABLE webhook_events DROP COLUMN body`);
    await q.query(`ALTER TABLE webhook_events DROP COLUMN last_error`);
    await q.query(`ALTER TABLE webhook_events DROP CONSTRAINT fk_webhook_events_task`);
    await q.query(`ALTER TABLE webhook_events DROP COLUMN task_id`);
    await q.query(`DROP INDEX ix_webhook_endpoints_state_next`);
    await q.query(`ALTER TABLE webhook_endpoints DROP COLUMN last_error`);
    await q.query(`ALTER TABLE webhook_endpoints DROP COLUMN next_attempt_at`);
    await q.query(`ALTER TABLE webhook_endpoints DROP COLUMN attempt_count`);
    await q.query(`ALTER TABLE tasks DROP CONSTRAINT fk_tasks_callback_endpoint`);
    await q.query(`ALTER TABLE tasks DROP COLUMN callback_endpoint_id`);
  }
}
