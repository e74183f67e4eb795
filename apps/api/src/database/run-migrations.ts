import type { DataSource } from 'typeorm';

/** Any fixed number: every server process that boots takes this advisory lock before migrating. */
const MIGRATION_LOCK = 727_001;

/** Runs pending migrations, one process at a time, so several nodes can boot together safely. */
export async function runMigrations(dataSource: DataSource): Promise<void> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await runner.release();
  }
}
