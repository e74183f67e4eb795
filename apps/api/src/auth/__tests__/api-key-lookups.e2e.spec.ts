import { randomBytes } from 'node:crypto';
import { aRequester, createApiKey } from '../../../test/factories';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { ApiKeysService } from '../api-keys.service';

const madeUp = () => `cb_live_${randomBytes(32).toString('base64url')}`;

describe('look-ups of unknown API keys are limited per client address', () => {
  let t: TestApp;
  let lookups: jest.SpyInstance;
  beforeAll(async () => {
    t = await startTestApp({ FAILED_API_KEYS_PER_ADDRESS_PER_MINUTE: '3' });
  });
  beforeEach(() => {
    lookups = jest.spyOn(t.db, 'query');
  });
  afterEach(() => lookups.mockRestore());
  afterAll(() => t.close());

  const keyQueries = () => lookups.mock.calls.filter(([sql]) => String(sql).includes('FROM api_keys WHERE secret_hash')).length;
  const ping = (key: string, remoteAddress: string, headers: Record<string, string> = {}) =>
    t.request({ method: 'GET', url: '/api/v1/ping', headers: { apikey: key, ...headers }, remoteAddress });

  it('lets a live key that no cache holds through when a client sends it many times at once: one look-up, one point', async () => {
    const r = await aRequester(t);
    const key = await createApiKey(t, r); // never looked up by this process
    const from = '203.0.113.77';
    const answers = await Promise.all(Array.from({ length: 12 }, () => ping(key, from)));
    expect(answers.map((res) => res.status)).toEqual(answers.map(() => 200));
    expect(keyQueries()).toBe(1);
  });

  it('answers 429 with Retry-After past the limit, before the database is asked; known secrets cost nothing', async () => {
    const r = await aRequester(t);
    const from = '203.0.113.5';
    expect((await ping(r.liveKey, from)).status).toBe(200); // found: its look-up is given back
    const first = madeUp();
    for (let i = 0; i < 5; i++) expect((await ping(first, from)).status).toBe(401); // looked up once, then cached
    expect((await ping(madeUp(), from)).status).toBe(401);
    expect((await ping(madeUp(), from)).status).toBe(401);
    expect(keyQueries()).toBe(4);

    const refused = await ping(madeUp(), from);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ errors: [{ field: 'root', detail: expect.stringMatching(/^too many unknown API keys from this address; retry in \d+ s$/) }] });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(keyQueries()).toBe(4);

    // A key this process already knows still answers; one it does not know waits for the window, as
    // the database would have to be asked.
    expect((await ping(r.liveKey, from)).status).toBe(200);
    expect((await ping(first, from)).status).toBe(401);
    expect((await ping(await createApiKey(t, r, 'test'), from)).status).toBe(429);
    expect(keyQueries()).toBe(4);
    // Another address has its look-ups.
    expect((await ping(madeUp(), '203.0.113.6')).status).toBe(401);
  });

  it('counts the address TRUST_PROXY believes: the forwarded one from a proxy on loopback, else the peer', async () => {
    for (let i = 0; i < 3; i++) expect((await ping(madeUp(), '127.0.0.1', { 'x-forwarded-for': '198.51.100.7' })).status).toBe(401);
    expect((await ping(madeUp(), '127.0.0.1', { 'x-forwarded-for': '198.51.100.7' })).status).toBe(429);
    expect((await ping(madeUp(), '127.0.0.1', { 'x-forwarded-for': '198.51.100.8' })).status).toBe(401);
    // A client that connects directly cannot pick a new address per request.
    for (let i = 0; i < 3; i++) expect((await ping(madeUp(), '203.0.113.9', { 'x-forwarded-for': `198.51.100.${20 + i}` })).status).toBe(401);
    expect((await ping(madeUp(), '203.0.113.9', { 'x-forwarded-for': '198.51.100.30' })).status).toBe(429);
  });
});

describe('unknown API keys never push known ones out of the key cache', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ FAILED_API_KEYS_PER_ADDRESS_PER_MINUTE: '1000000', CACHE_TTL_MS: '60000' });
  });
  afterAll(() => t.close());

  it('a known key stays cached after 25,000 made-up secrets', async () => {
    const r = await aRequester(t);
    expect((await t.request({ method: 'GET', url: '/api/v1/ping', headers: { apikey: r.liveKey } })).status).toBe(200);
    // Revoked behind the service's back: only the cached entry can still accept the key.
    await t.db.query('UPDATE api_keys SET revoked_at = now() WHERE account_id = $1', [r.accountId]);
    const keys = t.app.get(ApiKeysService);
    for (let batch = 0; batch < 25_000 / 50; batch++) {
      await Promise.all(Array.from({ length: 50 }, () => keys.authenticate(madeUp(), '203.0.113.1')));
    }
    expect((await t.request({ method: 'GET', url: '/api/v1/ping', headers: { apikey: r.liveKey } })).status).toBe(200);
    // 25,000 look-ups (a database query and a Redis count each) are more than the known keys' cache
    // holds; they took 20-60 s alone and over 120 s on a slow host beside other work: not a speed test.
  }, 300_000);
});
