import { signUp } from '../../../test/factories';
import { startTestApp, type TestApp } from '../../../test/test-app';

describe('the session rate limit on /api/work and /api/console', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ SESSION_RATE_LIMIT_REQUESTS: '5', SESSION_RATE_LIMIT_WINDOW_SECONDS: '60' });
  });
  afterAll(() => t.close());

  const get = (url: string, auth: Record<string, string>) => t.request({ method: 'GET', url, headers: auth });

  it('answers 429 with Retry-After past the limit, per user across both surfaces and all their sessions', async () => {
    const user = await signUp(t);
    const statuses: number[] = [];
    for (const url of ['/api/work/earnings', '/api/work/checkouts', '/api/console/projects', '/api/console/api_keys', '/api/work/projects']) {
      statuses.push((await get(url, user.auth)).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200]);

    const refused = await get('/api/console/projects', user.auth);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ errors: [{ field: 'root', detail: expect.stringMatching(/^rate limit exceeded; retry in \d+ s$/) }] });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    // A write is refused before it runs.
    const write = await t.request({ method: 'POST', url: '/api/console/api_keys', headers: user.auth, body: { mode: 'live' } });
    expect(write.status).toBe(429);
    expect((await t.db.query('SELECT count(*)::int AS n FROM api_keys WHERE account_id = $1', [user.accountId]))[0].n).toBe(0);

    // Logging in again is a new session of the same user: no new budget.
    const login = await t.request({
      method: 'POST',
      url: '/api/session/login',
      remoteAddress: '198.51.100.20',
      body: { email: user.email, password: 'correct horse battery' },
    });
    expect(login.status).toBe(200);
    expect((await get('/api/work/earnings', { authorization: `Bearer ${login.body.data.token}` })).status).toBe(429);

    // /api/session stays open to the user, and another user has a budget of their own.
    expect((await get('/api/session/me', user.auth)).status).toBe(200);
    expect((await get('/api/work/earnings', (await signUp(t)).auth)).status).toBe(200);
    expect((await t.request({ method: 'POST', url: '/api/session/logout', headers: user.auth })).status).toBe(200);
  });

  it("counts the account's data file, the one /api/session route that is as dear as any read", async () => {
    const user = await signUp(t);
    for (let i = 0; i < 5; i++) expect((await get('/api/session/export', user.auth)).status).toBe(200);
    expect((await get('/api/session/export', user.auth)).status).toBe(429);
    expect((await get('/api/work/earnings', user.auth)).status).toBe(429);
    expect((await get('/api/session/me', user.auth)).status).toBe(200);
  });

  it('answers a request without a valid session 401, counting nothing', async () => {
    const user = await signUp(t);
    for (let i = 0; i < 10; i++) expect((await get('/api/work/earnings', { authorization: 'Bearer cbs_nothing' })).status).toBe(401);
    expect((await get('/api/work/earnings', user.auth)).status).toBe(200);
  });
});
