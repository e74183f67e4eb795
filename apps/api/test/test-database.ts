import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/database/data-source.options';
import { runMigrations } from '../src/database/run-migrations';

/** The server that tests create their databases on (trust auth, user postgres, in CI and here). */
export const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEMPLATE_DB = 'crowdbox_test_template';

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

/** A fresh database with every migration applied; each test file copies it (fast: CREATE ... TEMPLATE). */
export async function createTemplateDatabase(): Promise<void> {
  await admin(async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${TEMPLATE_DB}`);
  });
  const dataSource = new DataSource(dataSourceOptions(databaseUrl(TEMPLATE_DB), 2));
  await dataSource.initialize();
  try {
    await runMigrations(dataSource);
  } finally {
    await dataSource.destroy();
  }
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
