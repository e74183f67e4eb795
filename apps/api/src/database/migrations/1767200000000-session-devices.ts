import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What tells a user's sessions apart on the account page (docs/decisions.md, "Signed-in devices"): the
 * browser's User-Agent and the client address at sign-in, and when the session was last used. Nullable
 * with no default: a change of the catalogue only, no rewrite; sessions made before it show none.
 */
export class SessionDevices1767200000000 implements MigrationInterface {
  name = 'SessionDevices1767200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sessions ADD COLUMN user_agent text, ADD COLUMN client_address text, ADD COLUMN last_used_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sessions DROP COLUMN user_agent, DROP COLUMN client_address, DROP COLUMN last_used_at`);
  }
}
