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
    await q.query(`ALTER TABLE idempotency_keys ALTER COLUMN response_body TYPE json USING response_body::json`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE idempotency_keys ALTER COLUMN response_body TYPE jsonb USING response_body::jsonb`);
  }
}
