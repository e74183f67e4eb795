import { pgPool } from '../../database/prepared-statement';
import { eventually } from '../../../test/eventually';
import { signUp, type SignedIn } from '../../../test/factories';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { FAILURES_PER_ADDRESS } from '../login-throttle';
import { hashPassword, scryptParams } from '../password.util';

const OLD = 'old password 1';
const NEW = 'new password 2';

describe('changing the password and ending other sessions (/api/session/password, /api/session/logout_others)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const logIn = (email: string, password: string, remoteAddress?: string) =>
    t.request({ method: 'POST', url: '/api/session/login', remoteAddress, body: { email, password } });
  /** A second device: a session of its own, already resolved once so this node has it cached. */
  const anotherSession = async (user: SignedIn, password = OLD): Promise<Record<string, string>> => {
    const res = await logIn(user.email, password);
    expect(res.status).toBe(200);
    const auth = { authorization: `Bearer ${res.body.data.token}` };
    expect((await me(auth)).status).toBe(200);
    return auth;
  };
  const me = (headers: Record<string, string>) => t.request({ method: 'GET', url: '/api/session/me', headers });
  const changePassword = (headers: Record<string, string>, body: unknown, remoteAddress?: string) =>
    t.request({ method: 'POST', url: '/api/session/password', headers, body, remoteAddress });
  const passwordHash = async (user: SignedIn): Promise<string> =>
    (await t.db.query('SELECT password_hash FROM users WHERE id = $1', [user.userId]))[0].password_hash;

  it('changes the password from the session cookie: other sessions get 401 at once, this device goes on with a new token, only the new password logs in', async () => {
    const user = await signUp(t, { password: OLD });
    const phone = await anotherSession(user);
    const laptop = await anotherSession(user);
    // A session that ran out before the change and is still waiting for the hourly pruning is not counted.
    const stale = await anotherSession(user);
    await t.db.query(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE token_hash = encode(sha256(convert_to($1, 'UTF8')), 'hex')`, [
      stale.authorization.slice('Bearer '.length),
    ]);
    const someoneElse = await signUp(t);
    const before = await passwordHash(user);
    const cookie = { cookie: `cb_session=${user.token}` };

    const res = await changePassword(cookie, { current_password: OLD, new_password: NEW }, '203.0.113.7');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { ok: true, signed_out_sessions: 2, token: expect.stringMatching(/^cbs_/) } });
    const successor = res.body.data.token as string;
    expect(successor).not.toBe(user.token);
    // The cookie is the successor too, as a log-in sets it.
    expect(String(res.headers['set-cookie'])).toContain(`cb_session=${successor};`);

    // Both were cached on this node: the change took them out of the cache too, not only the table.
    for (const other of [phone, laptop]) {
      const refused = await me(other);
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({ errors: [{ field: 'root', detail: expect.stringContaining('log in again') }] });
    }
    // The token that asked ends with them (whoever copied it is locked out too); this device goes on with its successor.
    expect((await me(cookie)).status).toBe(401);
    expect((await me({ cookie: `cb_session=${successor}` })).status).toBe(200);
    expect((await me({ authorization: `Bearer ${successor}` })).status).toBe(200);
    expect((await me(someoneElse.auth)).status).toBe(200);
    // One session left: this device's new one, where it is now.
    const left = await t.db.query('SELECT user_agent, client_address FROM sessions WHERE user_id = $1', [user.userId]);
    expect(left).toEqual([{ user_agent: 'lightMyRequest', client_address: '203.0.113.7' }]);

    const after = await passwordHash(user);
    expect(after).not.toBe(before);
    expect(after).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(after).not.toContain(NEW);
    expect((await logIn(user.email, OLD)).status).toBe(401);
    expect((await logIn(user.email, NEW)).status).toBe(200);
  });

  it('ends every other session on request (Bearer), and leaves this one and other users alone', async () => {
    const user = await signUp(t);
    const others = [await anotherSession(user, 'correct horse battery'), await anotherSession(user, 'correct horse battery')];
    const someoneElse = await signUp(t);
    const before = await passwordHash(user);

    const res = await t.request({ method: 'POST', url: '/api/session/logout_others', headers: user.auth });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { signed_out_sessions: 2 } });
    for (const other of others) expect((await me(other)).status).toBe(401);
    expect((await me(user.auth)).status).toBe(200);
    expect((await me(someoneElse.auth)).status).toBe(200);
    expect(await passwordHash(user)).toBe(before);

    // Nothing left to end.
    const again = await t.request({ method: 'POST', url: '/api/session/logout_others', headers: user.auth });
    expect(again.body).toEqual({ data: { signed_out_sessions: 0 } });
  });

  it('answers a wrong current password with a 422 on current_password, changes nothing, and counts it as a failed log-in', async () => {
    const user = await signUp(t, { password: OLD });
    const phone = await anotherSession(user);
    const before = await passwordHash(user);
    const address = '198.51.100.40';

    const wrong = await changePassword(user.auth, { current_password: 'not it', new_password: NEW }, address);
    expect(wrong.status).toBe(422);
    expect(wrong.body).toEqual({ errors: [{ field: 'current_password', detail: 'is wrong' }] });
    expect(await passwordHash(user)).toBe(before);
    expect((await me(phone)).status).toBe(200);

    // The same count as log-ins for this email from this address: wrong changes and wrong log-ins add up.
    for (let i = 1; i < FAILURES_PER_ADDRESS - 1; i += 1) {
      expect((await changePassword(user.auth, { current_password: `guess ${i}`, new_password: NEW }, address)).status).toBe(422);
    }
    expect((await logIn(user.email, 'one more guess', address)).status).toBe(401);
    const held = await changePassword(user.auth, { current_password: OLD, new_password: NEW }, address);
    expect(held.status).toBe(429);
    expect(held.body).toEqual({ errors: [{ field: 'root', detail: expect.stringContaining('too many failed log-ins') }] });
    expect(Number(held.headers['retry-after'])).toBeGreaterThan(0);
    expect((await logIn(user.email, OLD, address)).status).toBe(429);

    expect(await passwordHash(user)).toBe(before);
    expect((await me(phone)).status).toBe(200);
    expect((await logIn(user.email, OLD, '203.0.113.40')).status).toBe(200);
  });

  it('validates the new password as sign-up does, and changes nothing', async () => {
    const user = await signUp(t, { password: OLD });
    const phone = await anotherSession(user);
    const before = await passwordHash(user);

    const short = await changePassword(user.auth, { current_password: OLD, new_password: 'short' });
    expect(short.status).toBe(422);
    expect(short.body).toEqual({ errors: [{ field: 'new_password', detail: 'must be at least 8 characters' }] });
    const long = await changePassword(user.auth, { current_password: OLD, new_password: 'x'.repeat(201) });
    expect(long.body).toEqual({ errors: [{ field: 'new_password', detail: 'must be at most 200 characters' }] });
    const empty = await changePassword(user.auth, {});
    expect(empty.status).toBe(422);
    expect(empty.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['current_password', 'new_password']);

    expect(await passwordHash(user)).toBe(before);
    expect((await me(phone)).status).toBe(200);
    expect((await logIn(user.email, OLD)).status).toBe(200);
  });

  it('needs a live session', async () => {
    const user = await signUp(t, { password: OLD });
    const before = await passwordHash(user);
    const anonymous = await t.request({ method: 'POST', url: '/api/session/password', body: { current_password: OLD, new_password: NEW } });
    expect(anonymous.status).toBe(401);
    expect((await t.request({ method: 'POST', url: '/api/session/logout_others' })).status).toBe(401);

    const ended = await anotherSession(user);
    expect((await t.request({ method: 'POST', url: '/api/session/logout', headers: ended })).status).toBe(200);
    expect((await changePassword(ended, { current_password: OLD, new_password: NEW })).status).toBe(401);
    expect((await t.request({ method: 'POST', url: '/api/session/logout_others', headers: ended })).status).toBe(401);
    expect(await passwordHash(user)).toBe(before);
    expect((await me(user.auth)).status).toBe(200);
  });

  it('refuses both as writes from another site, and a body over the limit, and changes nothing', async () => {
    const user = await signUp(t, { password: OLD });
    const phone = await anotherSession(user);
    const before = await passwordHash(user);
    const cookie = { cookie: `cb_session=${user.token}`, host: 'crowdbox.test' };
    const body = JSON.stringify({ current_password: OLD, new_password: NEW });
    const post = (url: string, headers: Record<string, string>, payload?: string) => t.request({ method: 'POST', url, headers: { ...cookie, ...headers }, body: payload });

    // <form enctype="text/plain"> from another site, a script on a sibling subdomain, an older browser's Origin.
    expect((await post('/api/session/password', { 'content-type': 'text/plain', 'sec-fetch-site': 'cross-site' }, body)).status).toBe(403);
    expect((await post('/api/session/password', { 'content-type': 'application/json', 'sec-fetch-site': 'same-site' }, body)).status).toBe(403);
    expect((await post('/api/session/password', { 'content-type': 'application/json', origin: 'https://evil.example' }, body)).status).toBe(403);
    expect((await post('/api/session/password', { 'content-type': 'text/plain' }, body)).status).toBe(415);
    const bodiless = await post('/api/session/logout_others', { 'sec-fetch-site': 'cross-site' });
    expect(bodiless.status).toBe(403);
    expect(bodiless.body).toEqual({ errors: [{ field: 'root', detail: expect.stringContaining('other sites') }] });
    const huge = await post('/api/session/password', { 'content-type': 'application/json' }, JSON.stringify({ current_password: OLD, new_password: 'x'.repeat(2 << 20) }));
    expect(huge.status).toBe(413);

    expect(await passwordHash(user)).toBe(before);
    expect((await me(phone)).status).toBe(200);

    // The app's own request passes the same check.
    const own = await post('/api/session/logout_others', { 'sec-fetch-site': 'same-origin', origin: 'https://crowdbox.test' });
    expect(own.body).toEqual({ data: { signed_out_sessions: 1 } });
  });

  it('gives no session to a log-in that checked the old password while the password changed', async () => {
    const user = await signUp(t, { password: OLD });
    // Holds the log-in's session insert until the password has changed under it.
    const other = await pgPool(t.db).connect();
    try {
      await other.query('BEGIN');
      await other.query('LOCK TABLE sessions IN SHARE MODE');
      const login = logIn(user.email, OLD);
      await eventually(async () => (await t.db.query(`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO sessions%'`)).length > 0);
      await other.query('UPDATE users SET password_hash = $2 WHERE id = $1', [user.userId, await hashPassword(NEW, scryptParams(1))]);
      await other.query('COMMIT');
      const res = await login;
      expect(res.status).toBe(401);
      expect(res.headers['set-cookie']).toBeUndefined();
    } finally {
      other.release();
    }
    expect((await t.db.query('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1', [user.userId]))[0].n).toBe(1);
    expect((await logIn(user.email, NEW)).status).toBe(200);
  });

  it('gives no lasting session to a log-in with the old password while a change is in flight (between its UPDATE and its COMMIT)', async () => {
    const user = await signUp(t, { password: OLD });
    await anotherSession(user);
    // Holds the change between its UPDATE of the user and its commit: its DELETE of the other sessions waits on this lock.
    const other = await pgPool(t.db).connect();
    let attacker: Awaited<ReturnType<typeof logIn>> | undefined;
    try {
      await other.query('BEGIN');
      await other.query(`SELECT 1 FROM sessions WHERE user_id = $1 AND token_hash <> encode(sha256(convert_to($2, 'UTF8')), 'hex') FOR UPDATE`, [
        user.userId,
        user.auth.authorization.replace('Bearer ', ''),
      ]);
      const change = changePassword(user.auth, { current_password: OLD, new_password: NEW });
      await eventually(async () => (await t.db.query(`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'DELETE FROM sessions%'`)).length > 0);
      let settled = false;
      const login = logIn(user.email, OLD).finally(() => (settled = true));
      // The log-in's check must run while the change is in flight: it has answered, or its insert waits.
      await eventually(
        async () => settled || (await t.db.query(`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO sessions%'`)).length > 0,
      );
      await other.query('COMMIT');
      expect((await change).status).toBe(200);
      attacker = await login;
    } finally {
      other.release();
    }
    // Refused, or given a session the change ended: either way none that works after it.
    if (attacker.status === 200) expect((await me({ authorization: `Bearer ${attacker.body.data.token}` })).status).toBe(401);
    else expect(attacker.status).toBe(401);
    expect((await logIn(user.email, OLD)).status).toBe(401);
  });
});
