import { createHash, randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { MIGRATIONS, dataSourceOptions } from '../src/database/data-source.options';
import { runMigrations } from '../src/database/run-migrations';

/** The server that tests create their databases on (trust auth, user postgres, in CI and here). */
export const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/**
 * Named after the migrations' source, so runs of the same code share one template and a run with changed
 * migrations (another checkout, another helper's branch) builds its own instead of dropping a template
 * that a concurrent run is copying.
 */
export const TEMPLATE_DB = `crowdbox_test_template_${createHash('sha256')
  .update(MIGRATIONS.map((m) => m.toString()).join('\n'))
  .digest('hex')
  .slice(0, 12)}`;

export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * The database with every migration applied that each test file copies (fast: CREATE ... TEMPLATE).
 * Built once per migration set; concurrent runs wait on an advisory lock instead of racing.
 */
export async function createTemplateDatabase(): Promise<void> {
  await admin(async (client) => {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [TEMPLATE_DB]);
    try {
      const { rows } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [TEMPLATE_DB]);
      if (rows.length > 0) return;
      // Built under a temporary name and renamed when complete, so a half-built template is never used.
      const building = `${TEMPLATE_DB}_building`;
      await client.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      await client.query(`CREATE DATABASE ${building}`);
      const dataSource = new DataSource(dataSourceOptions(databaseUrl(building), 2));
      await dataSource.initialize();
      try {
        await runMigrations(dataSource);
      } finally {
        await dataSource.destroy();
      }
      await client.query(`ALTER DATABASE ${building} RENAME TO ${TEMPLATE_DB}`);
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [TEMPLATE_DB]);
    }
  });
}

/** A new database with no schema at all (a first boot), for the tests of migrating itself. */
export async function createEmptyDatabase(): Promise<string> {
  const name = `crowdbox_test_${randomBytes(6).toString('hex')}`;
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  return name;
}

/** A private database for one test file, copied from the migrated template. */
export async function createTestDatabase(): Promise<string> {
  const name = `crowdbox_test_${randomBytes(6).toString('hex')}`;
  await admin((client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DB}`));
  return name;
}

export async function dropTestDatabase(name: string): Promise<void> {
  await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}
