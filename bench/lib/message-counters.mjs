// Messages per task: counts that do not depend on the host's speed. CPU per task drifts with the host
// (up to 3x between sessions on the same kind of machine), so a change that saves round trips cannot be
// told from the drift by time alone; these counts tell it on any host.
import { readFile } from 'node:fs/promises';
import { Redis } from 'ioredis';
import { withClient } from './db.mjs';

/** The kernel's count of TCP segments sent (every process on the machine: loopback carries them all). */
async function tcpSegmentsSent() {
  const lines = (await readFile('/proc/net/snmp', 'utf8')).split('\n').filter((l) => l.startsWith('Tcp:'));
  const [names, values] = lines.map((l) => l.trim().split(/\s+/));
  return Number(values[names.indexOf('OutSegs')]);
}

/** Redis: commands its clients sent, and of those the scripts (BullMQ's work is one script per step). */
async function redisCounters(redisUrl) {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });
  try {
    await redis.connect();
    const stats = await redis.info('stats');
    const commands = Number(/total_commands_processed:(\d+)/.exec(stats)?.[1]);
    const commandstats = await redis.info('commandstats');
    let scripts = 0;
    for (const m of commandstats.matchAll(/cmdstat_(evalsha|eval|evalsha_ro|eval_ro|fcall):calls=(\d+)/g)) scripts += Number(m[2]);
    return { commands, scripts };
  } finally {
    redis.disconnect();
  }
}

/**
 * A reading of every counter. PostgreSQL's are the benchmark database's committed and rolled-back
 * transactions and rows written; a backend reports them when it goes idle, at most once a second, so
 * read the second reading a second after the work (as walCounters).
 */
export async function messageCounters({ dbUrl, redisUrl }) {
  const [tcpSegments, redis, pgRow] = await Promise.all([
    tcpSegmentsSent(),
    redisUrl ? redisCounters(redisUrl) : null,
    withClient(dbUrl, async (c) => {
      const { rows } = await c.query(
        `SELECT (xact_commit + xact_rollback)::float8 AS transactions, (tup_inserted + tup_updated + tup_deleted)::float8 AS rows_written
           FROM pg_stat_database WHERE datname = current_database()`,
      );
      return rows[0];
    }),
  ]);
  return {
    tcpSegments,
    redisCommands: redis?.commands ?? null,
    redisScripts: redis?.scripts ?? null,
    pgTransactions: pgRow.transactions,
    pgRowsWritten: pgRow.rows_written,
  };
}

export function formatPerTask(m) {
  const f = (x) => (x === null ? '-' : x.toFixed(1));
  return `${f(m.tcpSegments)} TCP segments, ${f(m.redisCommands)} Redis commands (${f(m.redisScripts)} scripts), ${f(m.pgTransactions)} PostgreSQL transactions, ${f(m.pgRowsWritten)} rows written`;
}
