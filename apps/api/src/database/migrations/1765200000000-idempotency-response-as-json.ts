import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A replayed Idempotency-Key response must be the first response (API.md §1), field order included:
 * jsonb stores an object's keys sorted by length, so a replay came back as `prompt, reward, task_uuid…`
 * instead of the seed spec's order. json keeps the text as written. Rows already stored keep the order
 * jsonb gave them; they expire within 24 hours.
 */
export class IdempotencyResponseAsJson1765200000000 implements MigrationInterface {
  name = 'IdempotencyResponseAsJson1765200000000';

  async up(q: QueryRunner): Promise<void> {
    // The type change rewrites the table under an exclusive lock: first drop the records no replay can
    // use (past their 24 hours; nothing deleted them before IdempotencyPruning), so it rewrites a day's.
    await q.query(`DELETE FROM idempotency_keys WHERE created_at < now() - interval '24 hours'`);
    await q.query(`ALTER TABLE idempotency_keys ALTER COLUMN response_body TYPE json USING response_body::json`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE idempotency_keys ALTER COLUMN response_body TYPE jsonb USING response_body::jsonb`);
  }
}
