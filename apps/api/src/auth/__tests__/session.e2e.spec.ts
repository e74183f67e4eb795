import { UNSTORABLE_TEXT_DETAIL } from '@crowdbox/contracts';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.schema';
import { pgPool } from '../../database/prepared-statement';
import { eventually } from '../../../test/eventually';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { signUp } from '../../../test/factories';
import { FAILURES_PER_ADDRESS, FAILURES_PER_EMAIL } from '../login-throttle';

/** How many answers had each status: `{ 401: 10, 429: 21 }`. */
const statusCounts = (answers: Array<{ status: number }>): Record<number, number> =>
  answers.reduce<Record<number, number>>((counts, { status }) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});

describe('sessions (/api/session)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());
  /** SIGNUPS_PER_ADDRESS_PER_HOUR as this server read it: 20 unless the environment sets it. */
  const signupsPerAddress = () => t.app.get<AppConfig>(APP_CONFIG).SIGNUPS_PER_ADDRESS_PER_HOUR;

  it('signs up, sets an httpOnly cookie and answers me', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/session/signup',
      body: { email: '  Ada@Example.COM ', password: 'correct horse battery', name: 'Ada' },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.user).toEqual({
      id: expect.any(String),
      account_id: expect.any(String),
      email: 'ada@example.com',
      name: 'Ada',
      created_at: expect.stringMatching(/Z$/),
    });
    expect(res.body.data.token).toMatch(/^cbs_/);
    expect(String(res.headers['set-cookie'])).toMatch(/cb_session=cbs_[^;]+;.*HttpOnly/i);

    const cookie = String(res.headers['set-cookie']).split(';')[0];
    const me = await t.request({ method: 'GET', url: '/api/session/me', headers: { cookie } });
    expect(me.status).toBe(200);
    expect(me.body.data.user.email).toBe('ada@example.com');
  });

  it('refuses a second sign-up with the same email, whatever its case', async () => {
    await signUp(t, { email: 'grace@example.com' });
    const res = await t.request({
      method: 'POST',
      url: '/api/session/signup',
      body: { email: 'GRACE@example.com', password: 'another password', name: 'Grace' },
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ errors: [{ field: 'email', detail: expect.stringContaining('already registered') }] });
  });

  it('answers a sign-up that races another with the same email with a 422, not a 500', async () => {
    // The other sign-up holds its user row uncommitted: this one passes the "already registered" check,
    // then waits on the email's unique index until the other commits.
    const other = await pgPool(t.db).connect();
    try {
      await other.query('BEGIN');
      const [account] = (await other.query(`INSERT INTO accounts (id, name, webhook_signing_secret) VALUES (gen_random_uuid(), 'Other', 'whsec_x') RETURNING id`)).rows;
      await other.query(`INSERT INTO users (id, account_id, email, name, password_hash) VALUES (gen_random_uuid(), $1, 'racing@example.com', 'Other', 'x')`, [account.id]);
      const signup = t.request({ method: 'POST', url: '/api/session/signup', body: { email: 'racing@example.com', password: 'correct horse battery', name: 'Racer' } });
      await eventually(async () => (await t.db.query(`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO "users"%'`)).length > 0);
      await other.query('COMMIT');
      const res = await signup;
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ errors: [{ field: 'email', detail: expect.stringContaining('already registered') }] });
    } finally {
      other.release();
    }
  });

  it('answers 429 after 10 wrong passwords for an email from one address, even to the right one; another address and a success are not held back', async () => {
    const user = await signUp(t, { email: 'guessed@example.com', password: 'right password' });
    const logIn = (password: string, address = '198.51.100.7') =>
      t.request({ method: 'POST', url: '/api/session/login', headers: { 'x-forwarded-for': address }, body: { email: user.email, password } });
    for (let i = 0; i < 9; i += 1) expect((await logIn(`guess ${i}`)).status).toBe(401);
    // A success clears this address's count.
    expect((await logIn('right password')).status).toBe(200);
    for (let i = 0; i < FAILURES_PER_ADDRESS; i += 1) expect((await logIn(`guess ${i}`)).status).toBe(401);
    const held = await logIn('right password');
    expect(held.status).toBe(429);
    expect(held.body).toEqual({ errors: [{ field: 'root', detail: expect.stringContaining('too many failed log-ins') }] });
    expect(Number(held.headers['retry-after'])).toBeGreaterThan(0);
    expect(held.headers['set-cookie']).toBeUndefined();
    expect((await logIn('right password', '203.0.113.9')).status).toBe(200);
  });

  it('checks at most the limit of passwords of a parallel burst from one address, and refuses the right one after them', async () => {
    const user = await signUp(t, { password: 'right password' });
    const logIn = (password: string) => t.request({ method: 'POST', url: '/api/session/login', remoteAddress: '198.51.100.90', body: { email: user.email, password } });
    const burst = await Promise.all([...Array.from({ length: 3 * FAILURES_PER_ADDRESS }, (_, i) => logIn(`guess ${i}`)), logIn('right password')]);
    expect(statusCounts(burst)).toEqual({ 401: FAILURES_PER_ADDRESS, 429: 2 * FAILURES_PER_ADDRESS + 1 });
    // The right password came last: the ten guesses before it used the limit up.
    expect(burst[burst.length - 1].status).toBe(429);
    for (const res of burst.filter(({ status }) => status === 429)) {
      expect(res.body).toEqual({ errors: [{ field: 'root', detail: expect.stringContaining('too many failed log-ins') }] });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    // The refused log-ins were no guesses: the email's own count holds only the ten, so another address gets in.
    expect((await t.request({ method: 'POST', url: '/api/session/login', remoteAddress: '198.51.100.91', body: { email: user.email, password: 'right password' } })).status).toBe(200);
  });

  it('checks at most the limit of passwords of a parallel burst against one email from many addresses', async () => {
    const user = await signUp(t, { password: 'right password' });
    const logIn = (password: string, i: number) =>
      t.request({ method: 'POST', url: '/api/session/login', remoteAddress: `198.51.${101 + (i >> 8)}.${i & 255}`, body: { email: user.email, password } });
    const burst = await Promise.all(Array.from({ length: FAILURES_PER_EMAIL + 50 }, (_, i) => logIn(`guess ${i}`, i)));
    expect(statusCounts(burst)).toEqual({ 401: FAILURES_PER_EMAIL, 429: 50 });
    for (const res of burst.filter(({ status }) => status === 429)) expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect((await logIn('right password', 1000)).status).toBe(429);
  });

  it('answers 429 to an IPv6 /64 that failed 50 times across any emails, even to the right password of another; another /64 is not held back', async () => {
    const limit = t.app.get<AppConfig>(APP_CONFIG).FAILED_LOGINS_PER_ADDRESS_PER_15_MINUTES;
    const user = await signUp(t, { password: 'right password' });
    const logIn = (email: string, password: string, remoteAddress: string) => t.request({ method: 'POST', url: '/api/session/login', remoteAddress, body: { email, password } });
    // One password sprayed over many emails (most with no account) from addresses taken in turn in one /64, all at once.
    const spray = await Promise.all(Array.from({ length: limit + 10 }, (_, i) => logIn(`sprayed-${i}@example.com`, 'Summer2025!', `2001:db8:70:1::${(i + 1).toString(16)}`)));
    expect(statusCounts(spray)).toEqual({ 401: limit, 429: 10 });
    const held = await logIn(user.email, 'right password', '2001:db8:70:1:ffff::1');
    expect(held.status).toBe(429);
    expect(held.body).toEqual({ errors: [{ field: 'root', detail: expect.stringContaining('too many failed log-ins from this address') }] });
    expect(Number(held.headers['retry-after'])).toBeGreaterThan(0);
    expect((await logIn(user.email, 'right password', '2001:db8:70:2::1')).status).toBe(200);
  });

  it('answers 429 once one address has signed up 20 times in the hour, a taken email included; another address is not held back', async () => {
    const taken = await signUp(t);
    const signUpFrom = (remoteAddress: string, email: string) =>
      t.request({ method: 'POST', url: '/api/session/signup', remoteAddress, body: { email, password: 'correct horse battery', name: 'Spam' } });
    for (let i = 0; i < signupsPerAddress() - 2; i += 1) expect((await signUpFrom('198.51.100.60', `spam-${i}@example.com`)).status).toBe(201);
    expect((await signUpFrom('198.51.100.60', taken.email)).status).toBe(422);
    expect((await signUpFrom('198.51.100.60', 'spam-last@example.com')).status).toBe(201);

    const held = await signUpFrom('198.51.100.60', 'spam-over@example.com');
    expect(held.status).toBe(429);
    expect(held.body).toEqual({ errors: [{ field: 'root', detail: expect.stringContaining('too many sign-ups from this address') }] });
    expect(Number(held.headers['retry-after'])).toBeGreaterThan(3000);
    expect(held.headers['set-cookie']).toBeUndefined();
    expect(await t.db.query(`SELECT 1 FROM users WHERE email = 'spam-over@example.com'`)).toEqual([]);
    expect((await signUpFrom('198.51.100.61', 'spam-over@example.com')).status).toBe(201);
  });

  it('counts a sign-up refused for a taken email, so one address cannot probe which emails have accounts without end', async () => {
    const taken = await signUp(t);
    const probe = (email: string) =>
      t.request({ method: 'POST', url: '/api/session/signup', remoteAddress: '198.51.100.62', body: { email, password: 'correct horse battery', name: 'Probe' } });
    for (let i = 0; i < signupsPerAddress(); i += 1) {
      const res = await probe(taken.email);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ errors: [{ field: 'email', detail: 'is already registered; log in instead' }] });
    }
    const held = await probe(taken.email);
    expect(held.status).toBe(429);
    expect(held.body).toEqual({ errors: [{ field: 'root', detail: expect.stringContaining('too many sign-ups from this address') }] });
    expect(Number(held.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('counts an IPv6 client under its /64: addresses taken in turn inside it share the sign-up and log-in limits, another /64 does not', async () => {
    const signUpFrom = (remoteAddress: string, email: string) =>
      t.request({ method: 'POST', url: '/api/session/signup', remoteAddress, body: { email, password: 'correct horse battery', name: 'Spam' } });
    for (let i = 0; i < signupsPerAddress(); i += 1) {
      expect((await signUpFrom(`2001:db8:60:1:${(i + 1).toString(16)}:0:${i}:1`, `v6-spam-${i}@example.com`)).status).toBe(201);
    }
    const held = await signUpFrom('2001:db8:60:1:ffff:ffff:ffff:fffe', 'v6-spam-over@example.com');
    expect(held.status).toBe(429);
    expect(held.body).toEqual({ errors: [{ field: 'root', detail: expect.stringContaining('too many sign-ups from this address') }] });
    expect((await signUpFrom('2001:db8:60:2::1', 'v6-spam-over@example.com')).status).toBe(201);

    const user = await signUp(t, { password: 'right password' });
    const logIn = (password: string, remoteAddress: string) =>
      t.request({ method: 'POST', url: '/api/session/login', remoteAddress, body: { email: user.email, password } });
    for (let i = 0; i < FAILURES_PER_ADDRESS; i += 1) expect((await logIn(`guess ${i}`, `2001:db8:61:1::${(i + 1).toString(16)}`)).status).toBe(401);
    expect((await logIn('right password', '2001:db8:61:1:abcd::9')).status).toBe(429);
    expect((await logIn('right password', '2001:db8:61:2::1')).status).toBe(200);
  });

  it('validates every field of sign-up at once', async () => {
    const res = await t.request({ method: 'POST', url: '/api/session/signup', body: { email: 'nope', password: 'short' } });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['email', 'name', 'password']);
  });

  it.each([
    ['NUL', '\u0000'],
    ['a lone surrogate', '\ud800'],
  ])('refuses a name with %s with a 422 on name, and creates no user', async (_, bad) => {
    // A NUL was a 500 at the INSERT; a lone surrogate was stored as U+FFFD while the answer echoed it.
    const email = `bad-name-${bad.charCodeAt(0)}@example.com`;
    const res = await t.request({ method: 'POST', url: '/api/session/signup', body: { email, password: 'correct horse battery', name: `Ann${bad}` } });
    expect([res.status, res.body]).toEqual([422, { errors: [{ field: 'name', detail: UNSTORABLE_TEXT_DETAIL }] }]);
    expect(await t.db.query('SELECT id FROM users WHERE email = $1', [email])).toEqual([]);
  });

  it('logs in with the right password only, and does not say which part was wrong', async () => {
    const user = await signUp(t, { email: 'linus@example.com', password: 'right password' });
    const wrong = await t.request({ method: 'POST', url: '/api/session/login', body: { email: user.email, password: 'wrong password' } });
    const unknown = await t.request({ method: 'POST', url: '/api/session/login', body: { email: 'nobody@example.com', password: 'x' } });
    expect(wrong.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    const right = await t.request({ method: 'POST', url: '/api/session/login', body: { email: 'LINUS@example.com', password: 'right password' } });
    expect(right.status).toBe(200);
    expect(right.body.data.user.id).toBe(user.userId);
  });

  it('logs out: the token stops working', async () => {
    const user = await signUp(t);
    expect((await t.request({ method: 'POST', url: '/api/session/logout', headers: user.auth })).status).toBe(200);
    const me = await t.request({ method: 'GET', url: '/api/session/me', headers: user.auth });
    expect(me.status).toBe(401);
    expect(me.body.errors[0].field).toBe('root');
  });

  it('refuses a session past its expiry that the hourly pruning has not deleted yet', async () => {
    const user = await signUp(t);
    await t.db.query(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [user.userId]);
    for (const headers of [user.auth, { cookie: `cb_session=${user.token}` }]) {
      const me = await t.request({ method: 'GET', url: '/api/session/me', headers });
      expect(me.status).toBe(401);
      expect(me.body).toEqual({ errors: [{ field: 'root', detail: 'the session has expired or was logged out; log in again' }] });
    }
  });

  it('stores only a hash of the token and a slow hash of the password', async () => {
    const user = await signUp(t, { password: 'plain text password' });
    const [row] = await t.db.query('SELECT s.token_hash, u.password_hash FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.id = $1', [user.userId]);
    expect(row.token_hash).not.toContain(user.token);
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.password_hash).toMatch(/^scrypt\$/);
    expect(row.password_hash).not.toContain('plain text password');
  });
});

describe('SIGNUPS_PER_ADDRESS_PER_HOUR', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ SIGNUPS_PER_ADDRESS_PER_HOUR: '3' });
  });
  afterAll(() => t.close());

  it('answers 429 to the sign-up past the setting from one address, and not from another', async () => {
    const signUpFrom = (remoteAddress: string, email: string) =>
      t.request({ method: 'POST', url: '/api/session/signup', remoteAddress, body: { email, password: 'correct horse battery', name: 'Class' } });
    for (let i = 0; i < 3; i += 1) expect((await signUpFrom('198.51.100.80', `pupil-${i}@example.com`)).status).toBe(201);
    const held = await signUpFrom('198.51.100.80', 'pupil-3@example.com');
    expect(held.status).toBe(429);
    expect(held.body).toEqual({ errors: [{ field: 'root', detail: expect.stringContaining('too many sign-ups from this address') }] });
    expect((await signUpFrom('198.51.100.81', 'pupil-3@example.com')).status).toBe(201);
  });
});

describe('FAILED_LOGINS_PER_ADDRESS_PER_15_MINUTES', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ FAILED_LOGINS_PER_ADDRESS_PER_15_MINUTES: '3' });
  });
  afterAll(() => t.close());

  it('answers 429 to the log-in past the setting from one address, whatever the email, and not from another', async () => {
    const logIn = (remoteAddress: string, email: string) => t.request({ method: 'POST', url: '/api/session/login', remoteAddress, body: { email, password: 'Summer2025!' } });
    for (let i = 0; i < 3; i += 1) expect((await logIn('198.51.100.82', `sprayed-${i}@example.com`)).status).toBe(401);
    const held = await logIn('198.51.100.82', 'sprayed-3@example.com');
    expect(held.status).toBe(429);
    expect(held.body).toEqual({ errors: [{ field: 'root', detail: expect.stringContaining('too many failed log-ins from this address') }] });
    expect((await logIn('198.51.100.83', 'sprayed-3@example.com')).status).toBe(401);
  });
});

describe('PASSWORD_SCRYPT_P', () => {
  let cheap: TestApp & { database: string };
  let current: TestApp;
  beforeAll(async () => {
    // One database, two servers: one from before the setting was raised, one after.
    cheap = await startTestApp({ PASSWORD_SCRYPT_P: '1' });
    current = await startTestApp({ PASSWORD_SCRYPT_P: '3' }, { database: cheap.database });
  });
  afterAll(async () => {
    await current.close();
    await cheap.close();
  });

  const hashOf = async (userId: string): Promise<string> => (await current.db.query('SELECT password_hash FROM users WHERE id = $1', [userId]))[0].password_hash;
  const logIn = (email: string, password: string) => current.request({ method: 'POST', url: '/api/session/login', body: { email, password } });

  it('hashes new passwords with it, and a hash of other parameters again at its next successful log-in only', async () => {
    expect(await hashOf((await signUp(current, { password: 'new password' })).userId)).toMatch(/^scrypt\$16384\$8\$3\$/);

    const old = await signUp(cheap, { password: 'old password' });
    const before = await hashOf(old.userId);
    expect(before).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect((await logIn(old.email, 'wrong password')).status).toBe(401);
    expect(await hashOf(old.userId)).toBe(before);

    expect((await logIn(old.email, 'old password')).status).toBe(200);
    const after = await hashOf(old.userId);
    expect(after).toMatch(/^scrypt\$16384\$8\$3\$/);
    // A hash that is current is left alone, and the same password still opens it.
    expect((await logIn(old.email, 'old password')).status).toBe(200);
    expect(await hashOf(old.userId)).toBe(after);
    // A server set lower hashes it to its own setting in turn (an operator who lowers the setting means it).
    expect((await cheap.request({ method: 'POST', url: '/api/session/login', body: { email: old.email, password: 'old password' } })).status).toBe(200);
    expect(await hashOf(old.userId)).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect((await logIn(old.email, 'old password')).status).toBe(200);
  });

  it('logs in all the same when the re-hash cannot be written, and upgrades at a later log-in', async () => {
    const old = await signUp(cheap, { password: 'old password' });
    const before = await hashOf(old.userId);
    await current.db.query(`CREATE FUNCTION refuse_rehash() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$`);
    await current.db.query('CREATE TRIGGER refuse_rehash BEFORE UPDATE OF password_hash ON users FOR EACH ROW EXECUTE FUNCTION refuse_rehash()');
    try {
      expect((await logIn(old.email, 'old password')).status).toBe(200);
      expect(await hashOf(old.userId)).toBe(before);
    } finally {
      await current.db.query('DROP TRIGGER refuse_rehash ON users');
      await current.db.query('DROP FUNCTION refuse_rehash()');
    }
    expect((await logIn(old.email, 'old password')).status).toBe(200);
    expect(await hashOf(old.userId)).toMatch(/^scrypt\$16384\$8\$3\$/);
  });
});
