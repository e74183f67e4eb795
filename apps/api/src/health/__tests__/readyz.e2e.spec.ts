import { Client } from 'pg';
import { eventually } from '../../../test/eventually';
import { freePort } from '../../../test/free-port';
import { aRequester } from '../../../test/factories';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { createTestDatabase, databaseUrl, dropTestDatabase } from '../../../test/test-database';

/**
 * GET /readyz answers within READYZ_TIMEOUT_MS whatever PostgreSQL does: with every pooled connection
 * held, its `SELECT 1` used to wait for one as long as they were held.
 */
describe('GET /readyz', () => {
  let t: TestApp & { database: string };
  beforeAll(async () => {
    t = await startTestApp({ DATABASE_POOL_SIZE: '2', READYZ_TIMEOUT_MS: '500' });
  });
  afterAll(() => t.close());

  const timed = async () => {
    const from = Date.now();
    const res = await t.request({ method: 'GET', url: '/readyz' });
    return { status: res.status, body: res.body, ms: Date.now() - from };
  };

  it('answers 200 when both answer', async () => {
    // The shared Redis client may still be connecting right after the boot.
    const ready = await eventually(async () => {
      const res = await timed();
      return res.status === 200 && res.body.data.redis === 'ok' && res;
    }, 5_000);
    expect(ready).toMatchObject({ status: 200, body: { data: { ok: true, postgres: 'ok', redis: 'ok' } } });
  });

  it('answers 503 within its timeout while the pool is held busy, and 200 again once it is free', async () => {
    // Both connections of the pool, each in a 4 s sleep, seen from a session outside the pool.
    const held = Promise.all([1, 2].map(() => t.db.query('SELECT pg_sleep(4)')));
    const observer = new Client({ connectionString: databaseUrl(t.database) });
    await observer.connect();
    try {
      const sleeping = async () =>
        (await observer.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query = 'SELECT pg_sleep(4)' AND state = 'active'")).rows[0].n;
      expect(await eventually(async () => (await sleeping()) === 2, 3_000)).toBe(true);
    } finally {
      await observer.end();
    }

    const busy = await timed();
    expect(busy.status).toBe(503);
    expect(busy.body).toEqual({ errors: [{ field: 'postgres', detail: 'no answer within 500 ms' }] });
    expect(busy.ms).toBeGreaterThanOrEqual(450);
    expect(busy.ms).toBeLessThan(1_500);

    await held;
    expect((await timed()).status).toBe(200);
  }, 20_000);

  it('stays ready without Redis, which an HTTP process serves without, and says so without its error (which can name hosts, ports and users)', async () => {
    const port = await freePort();
    const away = await startTestApp({ REDIS_URL: `redis://127.0.0.1:${port}` }, { role: 'http' });
    try {
      const res = await away.request({ method: 'GET', url: '/readyz' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: { ok: true, postgres: 'ok', redis: 'unavailable' } });
      expect(res.text).not.toContain(String(port));
      // What readiness promises: requests are served (the rate limit falls back to this process's memory).
      const owner = await aRequester(away);
      expect((await away.request({ method: 'GET', url: '/api/v1/ping', headers: { apikey: owner.liveKey } })).status).toBe(200);
    } finally {
      await away.close();
    }
  });
});

describe('GET /readyz at shutdown (SHUTDOWN_DRAIN_MS)', () => {
  it('answers 503 while the process drains, and the process still serves requests until the drain ends', async () => {
    const t = await startTestApp({ SHUTDOWN_DRAIN_MS: '1500' }, { role: 'http' });
    const r = await aRequester(t);
    expect((await t.request({ method: 'GET', url: '/readyz' })).status).toBe(200);
    const from = Date.now();
    const closed = t.close().then(() => Date.now() - from);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await t.request({ method: 'GET', url: '/readyz' })).toMatchObject({ status: 503, body: { errors: [{ field: 'root', detail: 'shutting down' }] } });
    expect((await t.request({ method: 'GET', url: '/api/v1/ping', headers: { apikey: r.liveKey } })).status).toBe(200);
    expect(await closed).toBeGreaterThanOrEqual(1500);
  });

  it('does not wait by default', async () => {
    // Its own database, dropped after the timing (a DROP DATABASE on a busy host takes seconds).
    const database = await createTestDatabase();
    try {
      const t = await startTestApp({}, { role: 'http', database });
      const from = Date.now();
      await t.close();
      expect(Date.now() - from).toBeLessThan(1500);
    } finally {
      await dropTestDatabase(database);
    }
  });
});
