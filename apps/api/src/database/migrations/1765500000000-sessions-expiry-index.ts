import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Expired sessions are deleted hourly (auth/session-pruning.ts), oldest first, in batches: this index
 * finds them without reading the live ones. Built CONCURRENTLY, so log-ins never wait for the build; a
 * failed build leaves an invalid index, so the step drops it first and can simply run again.
 */
export class SessionsExpiryIndex1765500000000 implements MigrationInterface {
  name = 'SessionsExpiryIndex1765500000000';
  transaction = false as const;

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ix_sessions_expires_at`);
    await q.query(`CREATE INDEX CONCURRENTLY ix_sessions_expires_at ON sessions (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ix_sessions_expires_at`);
  }
}
