import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The outbox relay pages through overdue events by (next_attempt_at, id) (outbox-relay.ts). The pending
 * events' index held next_attempt_at alone, so every page sorted the whole overdue backlog to find its
 * 1,000 rows; with id as the index's second column a page is an ordered range scan from the keyset.
 * Built CONCURRENTLY (outside a transaction), so completions, which insert into this table, never wait
 * for the build. A concurrent build that fails leaves an invalid index behind, so each step first drops
 * what it is about to create: running the migration again after a failure rebuilds it cleanly.
 * docs/decisions.md, "The relay drains a backlog at delivery speed".
 */
export class RelayKeysetIndex1765100000000 implements MigrationInterface {
  name = 'RelayKeysetIndex1765100000000';
  transaction = false as const;

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ix_webhook_events_pending_next_id`);
    await q.query(`CREATE INDEX CONCURRENTLY ix_webhook_events_pending_next_id ON webhook_events (next_attempt_at, id) WHERE state = 'pending'`);
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ix_webhook_events_pending_next`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ix_webhook_events_pending_next`);
    await q.query(`CREATE INDEX CONCURRENTLY ix_webhook_events_pending_next ON webhook_events (next_attempt_at) WHERE state = 'pending'`);
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ix_webhook_events_pending_next_id`);
  }
}
