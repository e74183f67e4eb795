import type { Pool, PoolClient } from 'pg';

/**
 * Rows fetched per round trip when walking a project's complete tasks (its exports, the consensus
 * refresh). Small enough that a batch's rows and what is made of them die young (a batch of 1,000
 * lived through two scavenges often enough to push ~150 MB into V8's old space during a 100,000-task
 * export when every row's consensus was computed here; see docs/performance.md).
 */
export const EXPORT_BATCH = 250;

/** Every page query's keys: the task id and its completion time as text, the keyset cursor. */
export interface PageRow {
  id: string;
  cursor: string;
}

/** The keyset query of a walk: `columns` of the complete tasks after the cursor ($2, $3); further parameters are $4, $5… */
export function pageSql(columns: string, joins = ''): string {
  return `SELECT t.id, t.completed_at::text AS cursor, ${columns}
            FROM tasks t ${joins}
           WHERE t.project_id = $1 AND t.completed_at IS NOT NULL
             AND ($2::timestamptz IS NULL OR (t.completed_at, t.id) > ($2::timestamptz, $3::uuid))
           ORDER BY t.completed_at, t.id
           LIMIT ${EXPORT_BATCH}`;
}

/**
 * A project's complete tasks, oldest completion first, in batches by keyset pagination on
 * (completed_at, id), with the columns of `sql` (made by pageSql; `params` are its $4, $5…). The
 * cursor is the timestamp as text, so microseconds survive the round trip through JavaScript. The next
 * batch is asked for as soon as one arrives, so PostgreSQL builds it while this one is used: one query
 * in flight at a time, never more than two batches in memory.
 */
export async function* completedTaskPages<R extends PageRow>(db: Pool | PoolClient, projectId: string, sql: string, params: unknown[]): AsyncIterable<R[]> {
  // Unnamed statements on purpose: a generic plan of this keyset query could not use the cursor.
  const page = (after: PageRow | null): Promise<R[]> => {
    const next = db.query<R>(sql, [projectId, after?.cursor ?? null, after?.id ?? null, ...params]).then((result) => result.rows);
    // Not left unhandled if the consumer stops (client gone) before awaiting it; still thrown below.
    next.catch(() => undefined);
    return next;
  };
  let pending = page(null);
  for (;;) {
    const rows = await pending;
    if (rows.length === 0) return;
    const more = rows.length === EXPORT_BATCH;
    if (more) pending = page(rows[rows.length - 1]);
    yield rows;
    if (!more) return;
  }
}
