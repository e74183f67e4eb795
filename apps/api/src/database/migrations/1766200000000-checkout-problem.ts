import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A worker who gives a task back may say what is wrong with it (docs/decisions.md, "Problem reports"):
 * the lease keeps the reason, and the task's owner sees the counts in the console. Only a lease that has
 * ended without a submission holds one. A nullable column without a default rewrites nothing; the check
 * is added NOT VALID, since every existing row holds NULL, which passes it, and new and updated rows are
 * checked all the same. The index that finds a project's reported tasks is the next migration's, built
 * concurrently outside a transaction.
 */
export class CheckoutProblem1766200000000 implements MigrationInterface {
  name = 'CheckoutProblem1766200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE checkouts ADD COLUMN problem text`);
    await q.query(`
      ALTER TABLE checkouts ADD CONSTRAINT ck_checkouts_problem
        CHECK (problem IS NULL OR (problem IN ('image_broken', 'unclear_instructions', 'offensive_content', 'other')
                                   AND state IN ('released', 'expired', 'cancelled'))) NOT VALID`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE checkouts DROP CONSTRAINT ck_checkouts_problem, DROP COLUMN problem`);
  }
}
