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

/**
 * The cluster's WAL counters (pg_stat_wal): syncs (each synchronous commit that had to flush makes
 * one; asynchronous commits leave theirs to the WAL writer), records and bytes. Each backend reports
 * its share when it goes idle, at most once a second, so a reading can miss a second or so of work.
 */
export async function walCounters(adminUrl) {
  return withClient(adminUrl, async (c) => {
    const [row] = (await c.query('SELECT wal_sync::float8 AS syncs, wal_records::float8 AS records, wal_bytes::float8 AS bytes FROM pg_stat_wal')).rows;
    return row;
  });
}
