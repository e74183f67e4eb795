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
 * Runs a prepared statement on the pool (autocommit) or, given a transaction's EntityManager or the
 * client of pgTransaction, on that transaction's own connection, so it sees and joins the transaction.
 */
export async function runPrepared<R extends QueryResultRow = QueryResultRow>(
  on: DataSource | EntityManager | PoolClient,
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

/**
 * BEGIN, `work` on one pool client, COMMIT (ROLLBACK on any error). For hot paths made only of
 * prepared statements, where TypeORM's `transaction` only adds a QueryRunner and an EntityManager per
 * call (the submit: docs/performance.md "Checkout and submit"). A client whose ROLLBACK fails is
 * closed rather than returned to the pool.
 */
export async function pgTransaction<T>(db: DataSource, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pgPool(db).connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError: Error) => {
      broken = rollbackError;
    });
    throw error;
  } finally {
    client.release(broken);
  }
}

async function pgClientOf(on: DataSource | EntityManager | PoolClient): Promise<Pool | PoolClient> {
  if (on instanceof DataSource) return pgPool(on);
  if (!(on instanceof EntityManager)) return on;
  const runner = on.queryRunner;
  if (!runner) throw new Error('runPrepared: the EntityManager is not bound to a transaction');
  // PostgresQueryRunner.connect() hands back the client it already holds for the transaction.
  return (await runner.connect()) as PoolClient;
}
