import type { DataSource, EntityManager } from 'typeorm';
import { QueryTimeoutClient } from './query-timeout-client';

/**
 * Runs `work` in a transaction whose statements may each take up to `limitMs`, rather than the pool's
 * DATABASE_STATEMENT_TIMEOUT_MS (30 s): longer, for the rare operation whose size the requester chooses
 * (cancel_outstanding of a project with millions of tasks), which 30 s would refuse for good; shorter,
 * for a read whose caller stops waiting sooner (the metrics' backlog), which would otherwise run on and
 * hold its connection. The statement_timeout is SET LOCAL (ends with the transaction); the connection's
 * client-side query_timeout is set to match and given back before the connection returns to the pool.
 */
export async function inTimedTransaction<T>(db: DataSource, limitMs: number, work: (tx: EntityManager) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    // TypeORM's PostgresQueryRunner holds the pg client it took from the pool (not on the QueryRunner interface).
    const connection: unknown = (tx.queryRunner as { databaseConnection?: unknown } | undefined)?.databaseConnection;
    const client = connection instanceof QueryTimeoutClient ? connection : undefined;
    const before = client?.queryTimeoutMs;
    await tx.query(`SET LOCAL statement_timeout = ${Math.round(limitMs)}`);
    // The server's limit decides; the client's only catches a peer that stopped answering.
    if (client && before) client.queryTimeoutMs = limitMs + 5_000;
    try {
      return await work(tx);
    } finally {
      if (client && before) client.queryTimeoutMs = before;
    }
  });
}
