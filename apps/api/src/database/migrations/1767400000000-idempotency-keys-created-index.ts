import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The hourly pruning of stale Idempotency-Key records (tasks/idempotency-pruning.ts) finds them by
 * `created_at`, which no index held: each batch of 1,000 walked the table from its start, over the rows
 * earlier batches had just deleted, so a pass cost the table's size times its batches (1M records with
 * 50,000 stale: 50 batches, ~8 s, the last a 173 ms scan; at tens of millions a day, past the statement
 * timeout, and the table would then grow for good). With this index a batch reads its 1,000 oldest rows.
 * Built CONCURRENTLY (outside a transaction), so keyed add_tasks, which insert into this table, never
 * wait for the build; a failed concurrent build leaves an invalid index, so `up` first drops it.
 */
export class IdempotencyKeysCreatedIndex1767400000000 implements MigrationInterface {
  name = 'IdempotencyKeysCreatedIndex1767400000000';
  transaction = false as const;

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ix_idempotency_keys_created_at`);
    await q.query(`CREATE INDEX CONCURRENTLY ix_idempotency_keys_created_at ON idempotency_keys (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ix_idempotency_keys_created_at`);
  }
}
