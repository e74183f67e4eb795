import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How many times an event was redelivered from the console. An attempt in flight when a redeliver
 * resets its event records its outcome only if this is still what it read, so the reset (a fresh
 * schedule, due now) is not overwritten by the old schedule's next step (docs/decisions.md, "A redeliver
 * wins over the attempt in flight"). A constant default: no table rewrite.
 */
export class EventRedeliveries1765300000000 implements MigrationInterface {
  name = 'EventRedeliveries1765300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_events ADD COLUMN redeliveries integer NOT NULL DEFAULT 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_events DROP COLUMN redeliveries`);
  }
}
