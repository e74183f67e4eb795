import { randomBytes } from 'node:crypto';
import { signUp } from '../../../test/factories';
import { startTestApp, type TestApp } from '../../../test/test-app';

const madeUp = () => `cbs_${randomBytes(32).toString('base64url')}`;

/** SessionGuard's look-ups of tokens no cache knows, limited per client address as API keys' are (SecretLookupThrottle). */
describe('look-ups of unknown session tokens are limited per client address', () => {
  let t: TestApp;
  let lookups: jest.SpyInstance;
  beforeAll(async () => {
    t = await startTestApp({ FAILED_API_KEYS_PER_ADDRESS_PER_MINUTE: '3', CACHE_TTL_MS: '60000' });
  });
  beforeEach(() => {
    lookups = jest.spyOn(t.db, 'query');
  });
  afterEach(() => lookups.mockRestore());
  afterAll(() => t.close());

  const tokenQueries = () => lookups.mock.calls.filter(([sql]) => String(sql).includes('WHERE s.token_hash = $1')).length;
  const projects = (token: string, remoteAddress: string) =>
    t.request({ method: 'GET', url: '/api/work/projects', headers: { authorization: `Bearer ${token}` }, remoteAddress });

  it('answers 429 with Retry-After past the limit, before the database is asked; live sessions cost nothing', async () => {
    const user = await signUp(t);
    const from = '203.0.113.5';
    expect((await projects(user.token, from)).status).toBe(200); // found: its look-up is given back
    const first = madeUp();
    for (let i = 0; i < 5; i++) expect((await projects(first, from)).status).toBe(401); // looked up once, then cached
    expect((await projects(madeUp(), from)).status).toBe(401);
    expect((await projects(madeUp(), from)).status).toBe(401);
    expect(tokenQueries()).toBe(4);

    const refused = await projects(madeUp(), from);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ errors: [{ field: 'root', detail: expect.stringMatching(/^too many unknown session tokens from this address; retry in \d+ s$/) }] });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    // The session routes too, and the cookie as the header.
    expect((await t.request({ method: 'GET', url: '/api/session/me', headers: { cookie: `cb_session=${madeUp()}` }, remoteAddress: from })).status).toBe(429);
    expect(tokenQueries()).toBe(4);

    // A session this process knows still answers, and an unknown token it has seen; a live one it does not
    // know waits for the window, as the database would have to be asked.
    expect((await projects(user.token, from)).status).toBe(200);
    expect((await projects(first, from)).status).toBe(401);
    const other = await signUp(t);
    expect((await projects(other.token, from)).status).toBe(429);
    expect(tokenQueries()).toBe(4);
    // Another address has its look-ups; unknown API keys are counted apart.
    expect((await projects(madeUp(), '203.0.113.6')).status).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/v1/ping', headers: { apikey: `cb_live_${randomBytes(32).toString('base64url')}` }, remoteAddress: from })).status).toBe(401);
  });

  it('lets valid sessions that no cache holds through together from one address, however many: only unknown tokens pay', async () => {
    // An office of workers behind one address, right after a deploy emptied the caches: more at once
    // than the limit (3 here), each token live but new to this process.
    const user = await signUp(t);
    const tokens = Array.from({ length: 12 }, madeUp);
    for (const token of tokens) {
      await t.db.query(
        `INSERT INTO sessions (id, user_id, token_hash, expires_at, client_address)
         VALUES (gen_random_uuid(), $1, encode(sha256(convert_to($2, 'UTF8')), 'hex'), now() + interval '1 day', '198.51.100.7')`,
        [user.userId, token],
      );
    }
    const from = '198.51.100.7';
    const answers = await Promise.all(tokens.map((token) => projects(token, from)));
    expect(answers.map((res) => res.status)).toEqual(tokens.map(() => 200));
    // Unknown ones still pay, and the limit holds for them and for sessions not yet looked up.
    for (let i = 0; i < 3; i++) expect((await projects(madeUp(), from)).status).toBe(401);
    expect((await projects(madeUp(), from)).status).toBe(429);
  });
});
