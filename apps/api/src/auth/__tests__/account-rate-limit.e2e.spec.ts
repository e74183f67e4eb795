import { aRequester, createApiKey, signUp } from '../../../test/factories';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { MAX_UNREVOKED_KEYS } from '../api-keys.service';

const ping = (t: TestApp, key: string) => t.request({ method: 'GET', url: '/api/v1/ping', headers: { apikey: key } });

/** Pings with each key in turn, `perKey` times each, and returns the statuses in order. */
async function pingEach(t: TestApp, keys: string[], perKey: number): Promise<number[]> {
  const statuses: number[] = [];
  for (const key of keys) for (let i = 0; i < perKey; i++) statuses.push((await ping(t, key)).status);
  return statuses;
}

describe('the /api/v1 rate limit counts per account as well as per key', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_REQUESTS: '3', RATE_LIMIT_WINDOW_SECONDS: '60' });
  });
  afterAll(() => t.close());

  it("an account's new keys share its budget: five keys get three requests in all, not fifteen", async () => {
    const r = await aRequester(t);
    const keys = [];
    for (let i = 0; i < 5; i++) keys.push(await createApiKey(t, r, 'live'));
    const statuses = await pingEach(t, keys, 3);
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.slice(3)).toEqual(Array(12).fill(429));
    // The first key, older than these, is the same account's too.
    const refused = await ping(t, r.liveKey);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ errors: [{ field: 'root', detail: expect.stringMatching(/^rate limit exceeded; retry in \d+ s$/) }] });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
  });

  it("test keys have a budget of their own, which they share; other accounts are not touched", async () => {
    const r = await aRequester(t);
    expect(await pingEach(t, [r.liveKey], 4)).toEqual([200, 200, 200, 429]);
    const tests = [r.testKey, await createApiKey(t, r, 'test')];
    expect(await pingEach(t, tests, 2)).toEqual([200, 200, 200, 429]);
    const other = await aRequester(t);
    expect(await pingEach(t, [other.liveKey], 3)).toEqual([200, 200, 200]);
  });
});

describe('RATE_LIMIT_ACCOUNT_REQUESTS above the per-key limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_REQUESTS: '3', RATE_LIMIT_ACCOUNT_REQUESTS: '5', RATE_LIMIT_WINDOW_SECONDS: '60' });
  });
  afterAll(() => t.close());

  it('holds each key to its own limit and the keys together to the account limit', async () => {
    const r = await aRequester(t);
    const second = await createApiKey(t, r, 'live');
    const third = await createApiKey(t, r, 'live');
    expect(await pingEach(t, [r.liveKey], 4)).toEqual([200, 200, 200, 429]);
    expect(await pingEach(t, [second, third], 2)).toEqual([200, 200, 429, 429]);
  });
});

describe('a cap on the keys an account holds', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const create = (auth: Record<string, string>, mode: 'live' | 'test' = 'live') =>
    t.request({ method: 'POST', url: '/api/console/api_keys', headers: auth, body: { mode } });

  it(`refuses a key past ${MAX_UNREVOKED_KEYS} unrevoked ones, live and test together, with 422; a revoked key frees its place`, async () => {
    const owner = await signUp(t);
    for (let i = 0; i < MAX_UNREVOKED_KEYS; i++) expect((await create(owner.auth, i % 2 === 0 ? 'live' : 'test')).status).toBe(201);
    const refused = await create(owner.auth, 'test');
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      errors: [
        {
          field: 'root',
          detail: `an account may hold at most ${MAX_UNREVOKED_KEYS} API keys that are not revoked; revoke one it no longer uses first`,
        },
      ],
    });
    const [newest] = (await t.request({ method: 'GET', url: '/api/console/api_keys', headers: owner.auth })).body.data;
    expect((await t.request({ method: 'DELETE', url: `/api/console/api_keys/${newest.id}`, headers: owner.auth })).status).toBe(200);
    expect((await create(owner.auth)).status).toBe(201);
    expect((await create(owner.auth)).status).toBe(422);
    // Another account is not held to this one's count.
    expect((await create((await signUp(t)).auth)).status).toBe(201);
  });

  it('holds under parallel creations', async () => {
    const owner = await signUp(t);
    const results = await Promise.all(Array.from({ length: MAX_UNREVOKED_KEYS + 10 }, () => create(owner.auth)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(MAX_UNREVOKED_KEYS);
    expect(results.filter((r) => r.status === 422)).toHaveLength(10);
    const [{ n }] = await t.db.query('SELECT count(*)::int AS n FROM api_keys WHERE account_id = $1', [owner.accountId]);
    expect(n).toBe(MAX_UNREVOKED_KEYS);
  });
});
