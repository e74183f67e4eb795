// PGlite (PostgreSQL compiled to WebAssembly) served over the Postgres wire protocol, so the API talks to
// it with the same `pg` driver and migrations it uses against a real server. It runs inside this
// process; the data directory persists across runs. Demo default only: every test uses real PostgreSQL.
import { PGlite } from '@electric-sql/pglite';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { serveOverWire } from './pglite-wire-server.mjs';

// The API's pool (DATABASE_POOL_SIZE 4 by default here) plus a few psql sessions fit easily.
const MAX_CONNECTIONS = 20;

/** Starts PGlite on `dataDir` and listens on 127.0.0.1:<free port>; returns the URL and a stop(). */
export async function startEmbeddedPostgres({ dataDir, lockFile }) {
  takeLock(lockFile);
  let db;
  let server;
  try {
    mkdirSync(dataDir, { recursive: true });
    db = await PGlite.create(dataDir);
    server = await serveOverWire(db, { host: '127.0.0.1', port: 0, maxConnections: MAX_CONNECTIONS });
  } catch (error) {
    await db?.close().catch(() => undefined);
    releaseLock(lockFile);
    throw error;
  }
  const { port } = server;
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    /** Stop the API first: closing the database under open connections throws away their work. */
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop().catch(() => undefined);
      // close() checkpoints, so the next start does not have to replay the WAL.
      await db.close().catch(() => undefined);
      releaseLock(lockFile);
    },
  };
}

/**
 * PGlite has no postmaster to refuse a second writer, and two processes on one data directory corrupt
 * it; a pid file stands in for that check.
 */
function takeLock(lockFile) {
  mkdirSync(dirname(lockFile), { recursive: true });
  try {
    writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
    return;
  } catch (error) {
    if (error.code !== 'EEXIST') throw error;
  }
  const holder = Number(readFileSync(lockFile, 'utf8').trim());
  if (holder && holder !== process.pid && isAlive(holder)) {
    throw new Error(
      `another npm start (pid ${holder}) is using the embedded database; stop it first, or set DATABASE_URL.`,
    );
  }
  // Left behind by a run that was killed: take it over.
  writeFileSync(lockFile, String(process.pid));
}

function releaseLock(lockFile) {
  try {
    if (readFileSync(lockFile, 'utf8').trim() === String(process.pid)) rmSync(lockFile);
  } catch {
    // Already gone.
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}
