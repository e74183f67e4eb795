import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The live leases of one task, which the lease query counts for every open task it passes and the
 * insert guard counts again. Without this index PostgreSQL counted them through ix_checkouts_active_expiry,
 * reading every active lease of every project and keeping the task's (auto_explain during
 * `npm run bench -- --suite=checkout`: 175 rows read per task passed, ~60 tasks passed per checkout).
 * Partial, so it holds only the few active rows however many checkouts the table keeps.
 */
export class ActiveCheckoutsIndex1764100000000 implements MigrationInterface {
  name = 'ActiveCheckoutsIndex1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX ix_checkouts_active_task ON checkouts (task_id, expires_at) WHERE state = 'active'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ix_checkouts_active_task`);
  }
}
