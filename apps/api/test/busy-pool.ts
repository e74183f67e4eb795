import { pgPool } from '../src/database/prepared-statement';
import type { TestApp } from './test-app';

/**
 * Makes each request while every connection of the app's pool is held, and expects each answered as a
 * busy database in the contract's shape (503 with Retry-After), not a 200 cut short: for streamed
 * answers (the exports) whose first query waits for a connection. Start the app with a small
 * DATABASE_POOL_SIZE and DATABASE_CONNECT_TIMEOUT_MS, and make each request once before, so that only
 * its own query needs the pool.
 */
export async function expectBusyPoolAnswers(t: TestApp, requests: Array<{ url: string; headers: Record<string, string> }>): Promise<void> {
  const pool = pgPool(t.db);
  const held = await Promise.all(Array.from({ length: pool.options.max }, () => pool.connect()));
  try {
    for (const request of requests) {
      const res = await t.request({ method: 'GET', ...request });
      expect({ url: request.url, status: res.status, body: res.body, retryAfter: res.headers['retry-after'] }).toEqual({
        url: request.url,
        status: 503,
        body: { errors: [{ field: 'root', detail: 'the database is busy; retry in a few seconds' }] },
        retryAfter: '2',
      });
    }
  } finally {
    for (const client of held) client.release();
  }
}
