import type { SessionInfo } from '@crowdbox/contracts';
import { randomUUID } from 'node:crypto';
import { eventually } from '../../../test/eventually';
import { signUp, type SignedIn } from '../../../test/factories';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { MAX_SESSIONS_PER_USER, MAX_USER_AGENT } from '../sessions.service';

const PASSWORD = 'correct horse battery';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

/** GET /api/session/sessions and DELETE /api/session/sessions/:id (docs/decisions.md, "Signed-in devices"). */
describe('signed-in devices', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const logIn = async (u: SignedIn, userAgent: string, remoteAddress: string) => {
    const res = await t.request({ method: 'POST', url: '/api/session/login', remoteAddress, headers: { 'user-agent': userAgent }, body: { email: u.email, password: PASSWORD } });
    expect(res.status).toBe(200);
    return { authorization: `Bearer ${res.body.data.token}` };
  };
  const sessions = async (auth: Record<string, string>): Promise<SessionInfo[]> => {
    const res = await t.request({ method: 'GET', url: '/api/session/sessions', headers: auth });
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const idOf = (list: SessionInfo[], which: (s: SessionInfo) => boolean): string => {
    const found = list.find(which);
    if (!found) throw new Error('no such session listed');
    return found.id;
  };
  const end = (auth: Record<string, string>, id: string) => t.request({ method: 'DELETE', url: `/api/session/sessions/${id}`, headers: auth });
  const me = async (auth: Record<string, string>) => (await t.request({ method: 'GET', url: '/api/session/me', headers: auth })).status;

  it('lists each live session with the browser and address it signed in from, when last used, and which one asks', async () => {
    const u = await signUp(t);
    const laptop = await logIn(u, FIREFOX, '198.51.100.7');
    const phone = await logIn(u, 'x'.repeat(MAX_USER_AGENT + 100), '2001:db8::5');
    expect(await me(laptop)).toBe(200);
    // The use is recorded off the request's path: wait for it.
    await eventually(async () => (await t.db.query(`SELECT 1 FROM sessions WHERE user_id = $1 AND last_used_at IS NOT NULL`, [u.userId])).length > 0);

    const listed = await sessions(laptop);
    expect(listed).toHaveLength(3);
    const byAgent = (agent: string | null) => listed.find((s) => s.user_agent === agent);
    expect(byAgent(FIREFOX)).toEqual({
      id: expect.any(String),
      created_at: expect.any(String),
      expires_at: expect.any(String),
      last_used_at: expect.any(String),
      user_agent: FIREFOX,
      client_address: '198.51.100.7',
      current: true,
    });
    // A User-Agent is kept to its first MAX_USER_AGENT characters.
    expect(byAgent('x'.repeat(MAX_USER_AGENT))).toMatchObject({ client_address: '2001:db8::5', current: false, last_used_at: null });
    // Most recently used first: the laptop was used just now.
    expect(listed[0].user_agent).toBe(FIREFOX);
    // Each session's own view marks itself.
    expect((await sessions(phone)).filter((s) => s.current).map((s) => s.user_agent)).toEqual(['x'.repeat(MAX_USER_AGENT)]);
  });

  it('ends one other session at once, leaving the rest; the own one is a log-out that clears the cookie', async () => {
    const u = await signUp(t);
    const laptop = await logIn(u, FIREFOX, '198.51.100.8');
    const lost = await logIn(u, 'Lost phone', '198.51.100.9');
    expect(await me(lost)).toBe(200); // cached in this process now: the end must reach the cache too
    const lostId = idOf(await sessions(laptop), (s) => s.user_agent === 'Lost phone');

    const res = await end(laptop, lostId);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: lostId, current: false });
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await me(lost)).toBe(401);
    expect(await me(laptop)).toBe(200);
    expect(await me(u.auth)).toBe(200);
    expect((await sessions(laptop)).map((s) => s.id)).not.toContain(lostId);

    const ownId = idOf(await sessions(laptop), (s) => s.current);
    const own = await end(laptop, ownId);
    expect(own.status).toBe(200);
    expect(own.body.data).toEqual({ id: ownId, current: true });
    expect(String(own.headers['set-cookie'])).toMatch(/^cb_session=;/);
    expect(await me(laptop)).toBe(401);
    expect(await me(u.auth)).toBe(200);
  });

  it("answers another user's session, an ended one, or no session 404, and ends nothing", async () => {
    const u = await signUp(t);
    const other = await signUp(t);
    const othersId = (await sessions(other.auth))[0].id;
    const ended = await logIn(u, FIREFOX, '198.51.100.10');
    const endedId = idOf(await sessions(ended), (s) => s.current);
    expect((await t.request({ method: 'POST', url: '/api/session/logout', headers: ended })).status).toBe(200);

    for (const id of [othersId, othersId.toUpperCase(), endedId, randomUUID(), 'not-a-uuid']) {
      const res = await end(u.auth, id);
      expect({ id, status: res.status, body: res.body }).toEqual({ id, status: 404, body: { errors: [{ field: 'root', detail: 'session not found' }] } });
    }
    expect(await me(other.auth)).toBe(200);
    expect(await sessions(u.auth)).toHaveLength(1);
  });

  it(`keeps at most ${MAX_SESSIONS_PER_USER} sessions per user: a sign-in beyond ends the least recently used`, async () => {
    const u = await signUp(t);
    // The signed-up session is used now; the others were made (and last used) earlier, oldest first.
    await t.db.query(
      `INSERT INTO sessions (id, user_id, token_hash, expires_at, created_at)
       SELECT gen_random_uuid(), $1, md5(random()::text), now() + interval '1 day', now() - make_interval(mins => i)
         FROM generate_series(1, $2::int) i`,
      [u.userId, MAX_SESSIONS_PER_USER - 1],
    );
    expect(await me(u.auth)).toBe(200);
    const oldest = (await t.db.query(`SELECT id FROM sessions WHERE user_id = $1 ORDER BY created_at LIMIT 2`, [u.userId])).map((r: { id: string }) => r.id);
    const third = await logIn(u, FIREFOX, '198.51.100.11');
    const fourth = await logIn(u, FIREFOX, '198.51.100.12');
    const left: Array<{ id: string }> = await t.db.query('SELECT id FROM sessions WHERE user_id = $1', [u.userId]);
    expect(left).toHaveLength(MAX_SESSIONS_PER_USER);
    expect(left.map((r) => r.id)).not.toContain(oldest[0]);
    expect(left.map((r) => r.id)).not.toContain(oldest[1]);
    for (const auth of [u.auth, third, fourth]) expect(await me(auth)).toBe(200);
  });

  it('records a use at most once a minute per session and process', async () => {
    const u = await signUp(t);
    const [first] = await t.db.query('SELECT last_used_at FROM sessions WHERE user_id = $1', [u.userId]);
    expect(first.last_used_at).toBeNull();
    expect(await me(u.auth)).toBe(200);
    const used = async () => (await t.db.query('SELECT last_used_at FROM sessions WHERE user_id = $1', [u.userId]))[0].last_used_at as Date | null;
    expect(await eventually(used)).not.toBeNull();
    await t.db.query(`UPDATE sessions SET last_used_at = now() - interval '1 hour' WHERE user_id = $1`, [u.userId]);
    for (let i = 0; i < 3; i++) expect(await me(u.auth)).toBe(200);
    // Not written again within the minute: the hour-old value stands, however long a write would take to land.
    for (const until = Date.now() + 1_000; Date.now() < until; await new Promise((r) => setTimeout(r, 50))) {
      expect(Date.now() - Number(await used())).toBeGreaterThan(3_000_000);
    }
  });
});
