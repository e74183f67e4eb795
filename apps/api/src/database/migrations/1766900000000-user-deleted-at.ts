import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When the user deleted the account (docs/decisions.md, "Deleting an account"); null while it is in use.
 * Nullable with no default: a change of the catalogue only, no rewrite of the table.
 */
export class UserDeletedAt1766900000000 implements MigrationInterface {
  name = 'UserDeletedAt1766900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users ADD COLUMN deleted_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users DROP COLUMN deleted_at`);
  }
}
