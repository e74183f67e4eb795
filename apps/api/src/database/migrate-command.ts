import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/config.schema';
import { dataSourceOptions } from './data-source.options';
import { runMigrations } from './run-migrations';

/**
 * `node main.js --migrate`: runs the pending migrations and exits, for a deploy that migrates in its own
 * step and boots the servers with MIGRATE_ON_BOOT=false. The same code as a boot's migration (one
 * connection, the advisory lock, each migration's lock_timeout and retries), without Redis or a server.
 */
export async function migrateAndExit(config: AppConfig): Promise<void> {
  const db = new DataSource(dataSourceOptions(config.DATABASE_URL, { poolSize: 1, connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS }));
  await db.initialize();
  try {
    await runMigrations(db, { lockTimeoutMs: config.DATABASE_MIGRATION_LOCK_TIMEOUT_MS, attempts: config.DATABASE_MIGRATION_ATTEMPTS });
  } finally {
    await db.destroy();
  }
}
