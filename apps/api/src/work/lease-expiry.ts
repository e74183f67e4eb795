import type { DataSource } from 'typeorm';

/**
 * Marks leases past their `expires_at` as expired. Only bookkeeping: a lease past its time already
 * counts as free everywhere. Returns the ids it expired.
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
            WHERE id IN (SELECT id FROM checkouts WHERE state = 'active' AND expires_at <= now() LIMIT 1000
                          FOR UPDATE SKIP LOCKED)
            RETURNING id
         ) SELECT id FROM expired`,
      );
  return rows.map((r) => r.id);
}
