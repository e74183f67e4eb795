import type { DataSource } from 'typeorm';

/**
 * Marks leases past their `expires_at` as expired. Only bookkeeping: a lease past its time already
 * counts as free everywhere. Returns the ids it expired.
 *
 * The sweep (no `checkoutId`) locks each lease and its task first, skipping any that another
 * transaction holds: ending a lease locks its task (the lease-count trigger), and cancel_outstanding
 * locks a project's open tasks one by one, so a sweep of many leases that waited for one of those
 * tasks while holding another's could deadlock with it. A skipped lease is taken by a later pass.
 *
 * (UPDATE ... RETURNING sits in a CTE because TypeORM's `query` answers a bare UPDATE with
 * `[rows, count]` instead of the rows.)
 */
export async function expireLeases(db: DataSource, checkoutId?: string): Promise<string[]> {
  const rows: Array<{ id: string }> = checkoutId
    ? await db.query(
        `WITH expired AS (
           UPDATE checkouts SET state = 'expired', ended_at = expires_at
            WHERE id = $1 AND state = 'active' AND expires_at <= now() RETURNING id
         ) SELECT id FROM expired`,
        [checkoutId],
      )
    : await db.query(
        `WITH expired AS (
           UPDATE checkouts SET state = 'expired', ended_at = expires_at
            WHERE id IN (SELECT c.id FROM checkouts c JOIN tasks t ON t.id = c.task_id
                          WHERE c.state = 'active' AND c.expires_at <= now() LIMIT 1000
                          FOR NO KEY UPDATE OF c, t SKIP LOCKED)
            RETURNING id
         ) SELECT id FROM expired`,
      );
  return rows.map((r) => r.id);
}
