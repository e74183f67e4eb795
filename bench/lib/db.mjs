// The benchmark's own database: dropped and created at the start of every run.
import pg from 'pg';

/** `postgres://…/postgres` -> `postgres://…/<name>` (keeps credentials, host and query string). */
export function databaseUrl(adminUrl, name) {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function withClient(url, fn) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** DROP DATABASE … WITH (FORCE) then CREATE DATABASE (PostgreSQL 13+). */
export async function recreateDatabase(adminUrl, name) {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsafe database name ${name}`);
  await withClient(adminUrl, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${name}`);
  });
}

/** Flushes dirty buffers so a checkpoint does not land in the middle of a measured round. */
export async function checkpoint(adminUrl) {
  await withClient(adminUrl, (c) => c.query('CHECKPOINT'));
}
