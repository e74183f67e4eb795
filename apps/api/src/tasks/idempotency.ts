import type { DataSource, EntityManager } from 'typeorm';
import { ApiException } from '../common/errors/api.exception';

export const IDEMPOTENCY_WINDOW_HOURS = 24;

export function validateIdempotencyKey(key: string | string[] | undefined): string | undefined {
  if (key === undefined) return undefined;
  const value = Array.isArray(key) ? key[0] : key;
  if (value.length < 1 || value.length > 255) {
    throw ApiException.unprocessable('Idempotency-Key', 'must be 1 to 255 characters');
  }
  return value;
}

/**
 * The stored response for this key when it is fresh and was made by the same body; a 422 when the key
 * was used with another body; undefined when there is none. Read without the lock: withIdempotency
 * reads it again under the lock before it writes.
 */
export async function storedResponse<T>(db: DataSource | EntityManager, accountId: string, key: string, hash: string): Promise<T | undefined> {
  const rows: Array<{ request_hash: string; response_body: T; fresh: boolean }> = await db.query(
    `SELECT request_hash, response_body, created_at > now() - make_interval(hours => $3) AS fresh
       FROM idempotency_keys WHERE account_id = $1 AND key = $2`,
    [accountId, key, IDEMPOTENCY_WINDOW_HOURS],
  );
  const stored = rows[0];
  if (!stored?.fresh) return undefined;
  if (stored.request_hash !== hash) throw keyUsedWithAnotherBody();
  return stored.response_body;
}

/** The 422 of a key used before with another body (API.md §1), for live and test keys alike. */
export function keyUsedWithAnotherBody(): ApiException {
  return ApiException.unprocessable('Idempotency-Key', 'was already used with a different body; use a new key for a new request');
}

/**
 * Runs `create` at most once per (account, key) in 24 h. Inside the caller's transaction, an advisory
 * lock serialises requests with the same key; a stored response for the same body is replayed, for
 * another body it is a 422. Only successes are stored, so a failed request can simply be retried.
 */
export async function withIdempotency<T>(
  tx: EntityManager,
  accountId: string,
  key: string | undefined,
  hash: string,
  create: () => Promise<T>,
): Promise<T> {
  if (key === undefined) return create();
  await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`${accountId}:${key}`]);
  const stored = await storedResponse<T>(tx, accountId, key, hash);
  if (stored !== undefined) return stored;
  const result = await create();
  await tx.query(
    `INSERT INTO idempotency_keys (account_id, key, request_hash, response_status, response_body)
     VALUES ($1, $2, $3, 201, $4)
     ON CONFLICT (account_id, key) DO UPDATE
       SET request_hash = excluded.request_hash, response_status = excluded.response_status,
           response_body = excluded.response_body, created_at = now()`,
    [accountId, key, hash, JSON.stringify(result)],
  );
  return result;
}

/**
 * A keyed create, whole: the stored response is looked up first, without a transaction (a retry's
 * usual case, and a replay answers even if what `work` would check has changed since); otherwise `work`
 * runs in a transaction of its own under withIdempotency (the key's lock, a second look, the stored
 * response written with it).
 */
export async function onceForKey<T>(db: DataSource, accountId: string, key: string, hash: string, work: (tx: EntityManager) => Promise<T>): Promise<T> {
  const stored = await storedResponse<T>(db, accountId, key, hash);
  if (stored !== undefined) return stored;
  return db.transaction((tx) => withIdempotency(tx, accountId, key, hash, () => work(tx)));
}
