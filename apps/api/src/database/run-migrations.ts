import { setTimeout as sleep } from 'node:timers/promises';
import { MigrationExecutor, type DataSource } from 'typeorm';
import type { QueryTimeoutClient } from './query-timeout-client';

/** Any fixed number: every server process that boots takes this advisory lock before migrating. */
const MIGRATION_LOCK = 727_001;
const LOCK_POLL_MS = 200;

/**
 * Runs pending migrations, one process at a time, so several nodes can boot together safely.
 *
 * The lock is polled, not waited for: a session blocked in pg_advisory_lock() holds its statement's
 * snapshot all the while, and CREATE INDEX CONCURRENTLY (migration 1765100000000) waits for every
 * older snapshot to go. The migrating process would wait for the blocked one, which waits for the
 * migrating process's lock: a hang PostgreSQL cannot see, since one link is in our code.
 *
 * The migrations run on the session that holds the lock, so migrating needs one connection, not two:
 * through a pool of one, a second would wait for the first for good. That session is idle, with no
 * snapshot, between statements, so CREATE INDEX CONCURRENTLY does not wait for it. It runs them with no
 * statement_timeout (DATABASE_STATEMENT_TIMEOUT_MS) and no query_timeout (DATABASE_QUERY_TIMEOUT_MS):
 * building an index on a large table takes as long as it takes, and cutting it leaves an INVALID index.
 */
export async function runMigrations(dataSource: DataSource): Promise<void> {
  const runner = dataSource.createQueryRunner();
  const client = (await runner.connect()) as QueryTimeoutClient;
  // The client's own limit (DATABASE_QUERY_TIMEOUT_MS) would close the connection under a long build.
  const queryTimeoutMs = client.queryTimeoutMs;
  client.queryTimeoutMs = 0;
  try {
    await runner.query('SET statement_timeout = 0');
    for (;;) {
      const [{ locked }]: Array<{ locked: boolean }> = await runner.query('SELECT pg_try_advisory_lock($1) AS locked', [MIGRATION_LOCK]);
      if (locked) break;
      await sleep(LOCK_POLL_MS);
    }
    const executor = new MigrationExecutor(dataSource, runner);
    executor.transaction = 'each';
    await executor.executePendingMigrations();
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    // Back to the session's own statement_timeout before the connection returns to the pool.
    await runner.query('RESET statement_timeout').catch(() => undefined);
    client.queryTimeoutMs = queryTimeoutMs;
    await runner.release();
  }
}
