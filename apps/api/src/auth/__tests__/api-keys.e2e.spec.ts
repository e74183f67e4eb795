import { createHash } from 'node:crypto';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { aRequester, signUp } from '../../../test/factories';

describe('API keys (/api/console/api_keys) and ping', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('creates live and test keys; the secret appears once and only its SHA-256 is stored', async () => {
    const owner = await signUp(t);
    const live = await t.request({ method: 'POST', url: '/api/console/api_keys', headers: owner.auth, body: { mode: 'live' } });
    expect(live.status).toBe(201);
    expect(live.body.data).toEqual({
      id: expect.any(String),
      mode: 'live',
      prefix: live.body.data.secret.slice(0, 12),
      secret: expect.stringMatching(/^cb_live_[A-Za-z0-9_-]{43}$/),
      created_at: expect.any(String),
    });
    const test = await t.request({ method: 'POST', url: '/api/console/api_keys', headers: owner.auth, body: { mode: 'test' } });
    expect(test.body.data.secret).toMatch(/^cb_test_/);

    const list = await t.request({ method: 'GET', url: '/api/console/api_keys', headers: owner.auth });
    expect(list.body.data).toHaveLength(2);
    expect(JSON.stringify(list.body)).not.toContain(live.body.data.secret);
    expect(list.body.data[0]).toEqual({ id: expect.any(String), mode: expect.any(String), prefix: expect.any(String), created_at: expect.any(String), last_used_at: null, revoked_at: null });

    const rows = await t.db.query('SELECT secret_hash FROM api_keys WHERE id = $1', [live.body.data.id]);
    expect(rows[0].secret_hash).toBe(createHash('sha256').update(live.body.data.secret).digest('hex'));
  });

  it('refuses a mode other than live or test', async () => {
    const owner = await signUp(t);
    const res = await t.request({ method: 'POST', url: '/api/console/api_keys', headers: owner.auth, body: { mode: 'prod' } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ field: 'mode', detail: 'must be "live" or "test"' }]);
  });

  it('ping tells live from test keys and records last use', async () => {
    const r = await aRequester(t);
    const live = await t.request({ method: 'GET', url: '/api/v1/ping', headers: { apikey: r.liveKey } });
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ data: { ok: true, mode: 'live', valid: true, production_key: true } });
    const test = await t.request({ method: 'GET', url: '/api/v1/ping', headers: { apikey: r.testKey } });
    expect(test.body.data).toMatchObject({ ok: true, mode: 'test', production_key: false });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const list = await t.request({ method: 'GET', url: '/api/console/api_keys', headers: r.auth });
    expect(list.body.data.every((k: { last_used_at: string | null }) => k.last_used_at !== null)).toBe(true);
  });

  it("cannot revoke another account's key", async () => {
    const a = await aRequester(t);
    const b = await signUp(t);
    const [key] = (await t.request({ method: 'GET', url: '/api/console/api_keys', headers: a.auth })).body.data;
    const res = await t.request({ method: 'DELETE', url: `/api/console/api_keys/${key.id}`, headers: b.auth });
    expect(res.status).toBe(404);
    expect((await t.request({ method: 'GET', url: '/api/v1/ping', headers: { apikey: a.liveKey } })).status).toBe(200);
  });

  it('console calls need a session', async () => {
    const res = await t.request({ method: 'GET', url: '/api/console/api_keys' });
    expect(res.status).toBe(401);
    expect(res.body.errors[0].field).toBe('root');
  });
});

describe('rate limit per key', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_REQUESTS: '3', RATE_LIMIT_WINDOW_SECONDS: '60' });
  });
  afterAll(() => t.close());

  it('answers 429 in the error shape with Retry-After, per key, from a bucket in Redis', async () => {
    const r = await aRequester(t);
    for (let i = 0; i < 3; i++) expect((await t.request({ method: 'GET', url: '/api/v1/ping', headers: { apikey: r.liveKey } })).status).toBe(200);
    const limited = await t.request({ method: 'GET', url: '/api/v1/ping', headers: { apikey: r.liveKey } });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ errors: [{ field: 'root', detail: expect.stringMatching(/retry in \d+ s/) }] });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    // The account's test keys have a budget of their own.
    expect((await t.request({ method: 'GET', url: '/api/v1/ping', headers: { apikey: r.testKey } })).status).toBe(200);
    const redis = (t.app.get(require('../../redis/redis.module').REDIS));
    const keys: string[] = await redis.keys('cbtest:*:rate*');
    expect(keys.length).toBeGreaterThan(0);
  });
});
