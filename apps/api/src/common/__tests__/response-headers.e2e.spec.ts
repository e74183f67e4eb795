import { startTestApp, type TestApp } from '../../../test/test-app';
import { aRequester, type Requester } from '../../../test/factories';

describe('headers on every answer', () => {
  let t: TestApp;
  let r: Requester;
  beforeAll(async () => {
    t = await startTestApp();
    r = await aRequester(t);
  });
  afterAll(() => t.close());

  it('cache-control: no-store on the API\'s answers, those that hold secrets first', async () => {
    const key = await t.request({ method: 'POST', url: '/api/console/api_keys', headers: r.auth, body: { mode: 'live' } });
    expect(key.status).toBe(201);
    const secret = await t.request({ method: 'GET', url: '/api/console/webhooks', headers: r.auth });
    const ping = await t.request({ method: 'GET', url: '/api/v1/ping', headers: { apikey: r.liveKey } });
    const missing = await t.request({ method: 'GET', url: '/api/v1/nothing-here' });
    for (const res of [key, secret, ping, missing]) {
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-request-id']).toEqual(expect.any(String));
    }
  });

  it('nosniff on every answer, and HSTS on those over HTTPS (here through a proxy on loopback) only', async () => {
    const plain = await t.request({ method: 'GET', url: '/api/v1/ping', headers: { apikey: r.liveKey } });
    const https = await t.request({ method: 'GET', url: '/api/v1/ping', headers: { apikey: r.liveKey, 'x-forwarded-proto': 'https' } });
    const missing = await t.request({ method: 'GET', url: '/api/v1/nothing-here', headers: { 'x-forwarded-proto': 'https' } });
    for (const res of [plain, https, missing]) expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    expect(https.headers['strict-transport-security']).toBe('max-age=31536000');
    expect(missing.headers['strict-transport-security']).toBe('max-age=31536000');
  });

  it('Swagger UI cannot be framed', async () => {
    const res = await t.request({ method: 'GET', url: '/api/docs' });
    expect(res.status).toBe(200);
    expect(res.headers).toMatchObject({ 'x-frame-options': 'DENY', 'content-security-policy': "frame-ancestors 'none'", 'x-content-type-options': 'nosniff' });
  });

  it('the session cookie is Secure when the request came over HTTPS (here through a proxy on loopback), whatever NODE_ENV says', async () => {
    const body = { email: `secure-${Date.now()}@example.com`, password: 'correct horse battery', name: 'S' };
    const https = await t.request({ method: 'POST', url: '/api/session/signup', headers: { 'x-forwarded-proto': 'https' }, body });
    expect(https.status).toBe(201);
    expect(String(https.headers['set-cookie'])).toMatch(/; Secure/);
    const plain = await t.request({ method: 'POST', url: '/api/session/login', body: { email: body.email, password: body.password } });
    expect(plain.status).toBe(200);
    expect(String(plain.headers['set-cookie'])).not.toMatch(/Secure/);
  });
});
