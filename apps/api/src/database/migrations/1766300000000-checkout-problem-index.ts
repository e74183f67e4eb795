import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The reported leases by task (migration 1766200000000): a project's reported tasks and a task row's
 * count are read through it without touching the other leases. Built CONCURRENTLY, so checkouts never
 * wait for the build; a failed build leaves an invalid index, so the step drops it first and can simply
 * run again.
 */
export class CheckoutProblemIndex1766300000000 implements MigrationInterface {
  name = 'CheckoutProblemIndex1766300000000';
  transaction = false as const;

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ix_checkouts_problem`);
    await q.query(`CREATE INDEX CONCURRENTLY ix_checkouts_problem ON checkouts (task_id) WHERE problem IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ix_checkouts_problem`);
  }
}
