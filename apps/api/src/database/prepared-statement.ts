import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { DataSource, EntityManager } from 'typeorm';

/**
 * A named SQL statement that PostgreSQL parses and plans once per connection instead of on every call.
 * Used on the hot paths (add_task, checkout, submit), where parsing and planning cost PostgreSQL more
 * than the work itself (docs/performance.md). Everything else goes through TypeORM's `query`.
 */
export interface PreparedStatement {
  /** Unique across the app: pg keys its per-connection statement cache by this name. */
  readonly name: string;
  readonly text: string;
}

/**
 * Runs a prepared statement on the pool (autocommit) or, given a transaction's EntityManager or a
 * pool client, on that transaction's own connection, so it sees and joins the transaction.
 */
export async function runPrepared<R extends QueryResultRow = QueryResultRow>(
  on: DataSource | EntityManager | Pool | PoolClient,
  statement: PreparedStatement,
  values: unknown[],
): Promise<R[]> {
  const client = await pgClientOf(on);
  const result = await client.query<R>({ name: statement.name, text: statement.text, values });
  return result.rows;
}

/** The pg pool under TypeORM's DataSource: for the hot paths that talk to the driver directly. */
export function pgPool(db: DataSource): Pool {
  return (db.driver as unknown as { master: Pool }).master;
}

async function pgClientOf(on: DataSource | EntityManager | Pool | PoolClient): Promise<Pool | PoolClient> {
  if (on instanceof DataSource) return pgPool(on);
  if (!(on instanceof EntityManager)) return on;
  const runner = on.queryRunner;
  if (!runner) throw new Error('runPrepared: the EntityManager is not bound to a transaction');
  // PostgresQueryRunner.connect() hands back the client it already holds for the transaction.
  return (await runner.connect()) as PoolClient;
}
