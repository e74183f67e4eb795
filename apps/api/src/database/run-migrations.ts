import { Logger } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { MigrationExecutor, type DataSource, type QueryRunner } from 'typeorm';
import { sqlState } from '../common/errors/sql-state';
import { waitForMigrationLock, MIGRATION_LOCK } from './migration-lock';
import type { QueryTimeoutClient } from './query-timeout-client';

/** lock_not_available: a statement waited lock_timeout for a lock and gave up. */
const LOCK_NOT_AVAILABLE = '55P03';
/** The pause between tries doubles up to this. */
const MAX_RETRY_DELAY_MS = 30_000;

export interface MigrationSettings {
  /**
   * lock_timeout of each migration that runs in a transaction (DATABASE_MIGRATION_LOCK_TIMEOUT_MS);
   * 0 waits for good. Default 5000.
   */
  lockTimeoutMs?: number;
  /** Tries of a migration that keeps giving up on its locks before the boot fails (DATABASE_MIGRATION_ATTEMPTS). Default 10. */
  attempts?: number;
  /** The first pause between tries, doubled after each up to 30 s. Default 1000. */
  retryDelayMs?: number;
  logger?: Pick<Logger, 'log' | 'warn'>;
}

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
 *
 * A migration in a transaction waits at most lockTimeoutMs for each lock. An ALTER TABLE queued behind a
 * long reader (a report, pg_dump) holds up every later query on that table, the app's included, for
 * as long as it waits; so it gives up, rolls back, and tries again after a pause, a number of times,
 * and then the boot fails saying so. A migration outside a transaction (CREATE INDEX CONCURRENTLY) has
 * no lock_timeout: its lock blocks no reader or writer, and its wait for older transactions to end is
 * harmless, where cutting that wait would leave an INVALID index.
 */
export async function runMigrations(dataSource: DataSource, settings: MigrationSettings = {}): Promise<void> {
  const { lockTimeoutMs = 5_000, attempts = 10, retryDelayMs = 1_000, logger = new Logger('Migrations') } = settings;
  const runner = dataSource.createQueryRunner();
  const client = (await runner.connect()) as QueryTimeoutClient;
  // The client's own limit (DATABASE_QUERY_TIMEOUT_MS) would close the connection under a long build.
  const queryTimeoutMs = client.queryTimeoutMs;
  client.queryTimeoutMs = 0;
  try {
    await runner.query('SET statement_timeout = 0');
    await waitForMigrationLock(runner, logger);
    withLockTimeout(runner, lockTimeoutMs);
    for (let attempt = 1; ; attempt++) {
      try {
        const executor = new MigrationExecutor(dataSource, runner);
        executor.transaction = 'each';
        await executor.executePendingMigrations();
        return;
      } catch (error) {
        if (sqlState(error) !== LOCK_NOT_AVAILABLE) throw error;
        const migration = (await new MigrationExecutor(dataSource, runner).getPendingMigrations())[0]?.name ?? 'a migration';
        const holder = await oldestTransaction(runner);
        if (attempt >= attempts) {
          throw new Error(
            `migration ${migration} gave up after ${attempts} ${attempts === 1 ? 'try' : 'tries'}: each waited ${lockTimeoutMs} ms for a lock ` +
              `(DATABASE_MIGRATION_LOCK_TIMEOUT_MS) that another session held; ${holder}. Run it again when that ` +
              `session is done, or raise DATABASE_MIGRATION_ATTEMPTS`,
          );
        }
        const delay = Math.min(retryDelayMs * 2 ** (attempt - 1), MAX_RETRY_DELAY_MS);
        logger.warn(
          `migration ${migration} waited ${lockTimeoutMs} ms for a lock and let go, so that queries on its table ` +
            `do not queue behind it; ${holder}; trying again in ${delay} ms (try ${attempt} of ${attempts})`,
        );
        await sleep(delay);
      }
    }
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    // Back to the session's own statement_timeout before the connection returns to the pool.
    await runner.query('RESET statement_timeout').catch(() => undefined);
    client.queryTimeoutMs = queryTimeoutMs;
    await runner.release();
  }
}

/**
 * Gives every transaction TypeORM starts on `runner` (one per migration that runs in one) a
 * `SET LOCAL lock_timeout`, which ends with the transaction: migrations outside one, and the session
 * once it is back in the pool, have none.
 */
function withLockTimeout(runner: QueryRunner, lockTimeoutMs: number): void {
  const start = runner.startTransaction.bind(runner);
  runner.startTransaction = async (isolationLevel) => {
    await start(isolationLevel);
    await runner.query(`SET LOCAL lock_timeout = ${Math.floor(lockTimeoutMs)}`);
  };
}

/** The likely holder, for the log: this database's oldest open transaction (never its statement, which may hold values). */
async function oldestTransaction(runner: QueryRunner): Promise<string> {
  const rows: Array<{ pid: number; application_name: string; state: string; seconds: number }> = await runner
    .query(
      `SELECT pid, application_name, state, round(extract(epoch FROM now() - xact_start))::int AS seconds
         FROM pg_stat_activity
        WHERE datname = current_database() AND xact_start IS NOT NULL AND pid <> pg_backend_pid()
        ORDER BY xact_start LIMIT 1`,
    )
    .catch(() => []);
  const oldest = rows[0];
  if (!oldest) return 'no transaction is open now';
  const application = oldest.application_name ? ` (${oldest.application_name})` : '';
  return `the oldest open transaction is pid ${oldest.pid}'s${application}, ${oldest.state}, open ${oldest.seconds} s`;
}
