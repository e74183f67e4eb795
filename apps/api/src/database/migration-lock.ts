import type { Logger } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import type { QueryRunner } from 'typeorm';

/** Any fixed number: every server process that boots takes this advisory lock before migrating. */
export const MIGRATION_LOCK = 727_001;
const LOCK_POLL_MS = 200;
/** While another process migrates, a line every this often says this one is still waiting. */
const WAITING_LOG_EVERY_MS = 30_000;

/**
 * Takes the migration lock on `runner`'s session, polling (run-migrations.ts says why not blocking), and
 * says in the log that it waits, and for whom: a migration on a large table takes minutes, and a
 * process that only waited in silence looked hung.
 */
export async function waitForMigrationLock(runner: QueryRunner, logger: Pick<Logger, 'log'>): Promise<void> {
  const since = Date.now();
  let nextLog = since;
  for (;;) {
    const [{ locked }]: Array<{ locked: boolean }> = await runner.query('SELECT pg_try_advisory_lock($1) AS locked', [MIGRATION_LOCK]);
    if (locked) {
      if (nextLog > since) logger.log(`took the migration lock after ${Math.round((Date.now() - since) / 1000)} s`);
      return;
    }
    if (Date.now() >= nextLog) {
      const waited = Math.round((Date.now() - since) / 1000);
      logger.log(`another process is migrating (${await lockHolder(runner)}); waiting for it${waited > 0 ? `, ${waited} s so far` : ''}`);
      nextLog = Date.now() + WAITING_LOG_EVERY_MS;
    }
    await sleep(LOCK_POLL_MS);
  }
}

/** Who holds the lock: pg_try_advisory_lock(bigint) keys it as classid = high 32 bits, objid = low, objsubid = 1. */
async function lockHolder(runner: QueryRunner): Promise<string> {
  const rows: Array<{ pid: number }> = await runner
    .query(
      `SELECT pid FROM pg_locks
        WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND classid = 0 AND objid = $1 AND objsubid = 1 AND granted`,
      [MIGRATION_LOCK],
    )
    .catch(() => []);
  return rows[0] ? `PostgreSQL pid ${rows[0].pid} holds the migration lock` : 'the migration lock is held';
}
