import type { DataSource } from 'typeorm';

/** Parked events released per statement (and so enqueued together). */
export const RELEASE_PAGE = 1000;

/**
 * A page of the address's parked events (pending with no next attempt: webhook-delivery.processor.ts
 * PARK_EVENT) made due now. A statement of its own, so however many events waited, no transaction
 * holds more than a page of them. SKIP LOCKED: two releasers (the challenge and a relay, or the relays
 * of two processes) take different pages instead of waiting for each other.
 */
const RELEASE = `
  WITH page AS (
    SELECT id FROM webhook_events WHERE endpoint_id = $1 AND state = 'pending' AND next_attempt_at IS NULL
     LIMIT ${RELEASE_PAGE} FOR UPDATE SKIP LOCKED
  ), released AS (
    UPDATE webhook_events e SET next_attempt_at = now() FROM page WHERE e.id = page.id RETURNING e.id
  ) SELECT id FROM released`;

/**
 * Ends the address's release once no parked event of it is left. Judged by NOT EXISTS, not by a short
 * page: a page that another releaser has locked but not committed still counts as parked here, so if
 * that releaser fails, its events are not left parked behind a finished release.
 */
const RELEASE_DONE = `
  UPDATE webhook_endpoints SET next_attempt_at = NULL
   WHERE id = $1 AND state = 'confirmed'
     AND NOT EXISTS (SELECT 1 FROM webhook_events WHERE endpoint_id = $1 AND state = 'pending' AND next_attempt_at IS NULL)`;

/** Confirmed addresses whose parked events are still being released, longest owed first. */
const RELEASES_OWED = `
  SELECT id FROM webhook_endpoints WHERE state = 'confirmed' AND next_attempt_at IS NOT NULL
   ORDER BY next_attempt_at, id LIMIT $1`;

/**
 * Releases one page of the events that waited for an address to be confirmed, and answers their ids
 * for the caller to enqueue. A confirmed address with a next_attempt_at is owed a release (set by the
 * confirmation, which releases the first page); the page that finds nothing left clears it.
 */
export async function releaseParkedPage(db: DataSource, endpointId: string): Promise<string[]> {
  const rows: Array<{ id: string }> = await db.query(RELEASE, [endpointId]);
  if (rows.length < RELEASE_PAGE) await db.query(RELEASE_DONE, [endpointId]);
  return rows.map((row) => row.id);
}

/** Up to `limit` addresses still owed a release (for the relay, which goes on where a confirmation left off). */
export async function releasesOwed(db: DataSource, limit: number): Promise<string[]> {
  const rows: Array<{ id: string }> = await db.query(RELEASES_OWED, [limit]);
  return rows.map((row) => row.id);
}
