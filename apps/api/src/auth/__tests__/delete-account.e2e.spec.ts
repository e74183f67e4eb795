import { aRequester, aTask, checkOut, completeTaskWithCallback, createProject, DEFAULT_PROJECT, signUp, submitABox, type SignedIn } from '../../../test/factories';
import { eventually } from '../../../test/eventually';
import { startTestApp, type TestApp, type TestResponse } from '../../../test/test-app';
import { WebhookReceiver } from '../../../test/webhook-receiver';
import { pgPool } from '../../database/prepared-statement';
import { ACCOUNT_DELETED } from '../../webhooks/deleted-account';

const PASSWORD = 'correct horse battery'; // factories' signUp default

/** Short retries and relay, as the webhook tests use, so an event's next attempt comes within seconds. */
const FAST = {
  WEBHOOK_RETRY_SCHEDULE_SECONDS: '0.2,0.3,0.5,1,1.5',
  WEBHOOK_RELAY_INTERVAL_MS: '100',
  WEBHOOK_RELAY_GRACE_MS: '300',
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
};

/** POST /api/session/delete_account (docs/decisions.md, "Deleting an account"). */
describe('deleting an account', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    t = await startTestApp(FAST);
    receiver = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    await receiver.stop();
    await t.close();
  });

  const deleteAccount = (who: SignedIn, password = PASSWORD) =>
    t.request({ method: 'POST', url: '/api/session/delete_account', headers: who.auth, body: { password } });
  const logIn = (email: string, password = PASSWORD) => t.request({ method: 'POST', url: '/api/session/login', body: { email, password } });
  const me = (auth: Record<string, string>) => t.request({ method: 'GET', url: '/api/session/me', headers: auth });
  const ping = (key: string) => t.request({ method: 'GET', url: '/api/v1/ping', headers: { apikey: key } });
  /** Everything of the account the deletion would change, as JSON. */
  const rowsOf = async (who: SignedIn) =>
    JSON.stringify(
      await Promise.all([
        t.db.query('SELECT * FROM users WHERE id = $1', [who.userId]),
        t.db.query('SELECT * FROM accounts WHERE id = $1', [who.accountId]),
        t.db.query('SELECT * FROM sessions WHERE user_id = $1 ORDER BY id', [who.userId]),
        t.db.query('SELECT id, revoked_at FROM api_keys WHERE account_id = $1 ORDER BY id', [who.accountId]),
        t.db.query('SELECT id, archived_at FROM projects WHERE account_id = $1 ORDER BY id', [who.accountId]),
        t.db.query('SELECT k.id, k.cancelled_at FROM tasks k JOIN projects p ON p.id = k.project_id WHERE p.account_id = $1 ORDER BY k.id', [who.accountId]),
        t.db.query('SELECT id, state FROM checkouts WHERE worker_id = $1 ORDER BY id', [who.userId]),
      ]),
    );

  it('refuses a wrong password with the 422 of a password change, on `password`, and changes nothing', async () => {
    const r = await aRequester(t);
    const w = await signUp(t);
    await aTask(t, r);
    await checkOut(t, w, r.projectUuid);
    for (const who of [r, w]) {
      const before = await rowsOf(who);
      const res = await deleteAccount(who, 'not my password');
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ errors: [{ field: 'password', detail: 'is wrong' }] });
      expect(res.headers['set-cookie']).toBeUndefined();
      expect(await rowsOf(who)).toBe(before);
      expect((await me(who.auth)).status).toBe(200);
    }
    expect((await ping(r.liveKey)).status).toBe(200);
    // A missing password is a validation error on the same field.
    expect((await t.request({ method: 'POST', url: '/api/session/delete_account', headers: r.auth, body: {} })).body.errors[0].field).toBe('password');
  });

  it("erases the requester: signed out everywhere, keys refused, projects archived with their outstanding tasks cancelled; the email is free again", async () => {
    const r = await aRequester(t);
    const secondProject = (await createProject(t, r, { name: 'second' })).uuid as string;
    const w = await signUp(t);
    const open = await aTask(t, r, { required_submissions: 2 });
    const leased = await checkOut(t, w, r.projectUuid);
    expect(leased.task_uuid).toBe(open);
    // The worker's submission on it (required 2) is kept and still counts.
    expect((await submitABox(t, w, leased.checkout_id)).status).toBe(201);
    const other = await signUp(t);
    const othersLease = await checkOut(t, other, r.projectUuid);
    const laptop = await logIn(r.email);
    expect(laptop.status).toBe(200);
    // Both keys have been used, so both are in this process's cache.
    expect((await ping(r.liveKey)).status).toBe(200);
    expect((await ping(r.testKey)).status).toBe(200);

    const res = await deleteAccount(r);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { deleted: true } });
    expect(String(res.headers['set-cookie'])).toMatch(/^cb_session=;.*Expires=Thu, 01 Jan 1970/);

    // Every session and key stops at once, in this process's caches too.
    expect((await me(r.auth)).status).toBe(401);
    expect((await me({ authorization: `Bearer ${laptop.body.data.token}` })).status).toBe(401);
    expect((await ping(r.liveKey)).status).toBe(401);
    expect((await ping(r.testKey)).status).toBe(401);
    expect((await logIn(r.email)).status).toBe(401);

    const [user] = await t.db.query('SELECT email, name, password_hash, deleted_at FROM users WHERE id = $1', [r.userId]);
    expect(user).toEqual({ email: `deleted-${r.userId}@deleted.invalid`, name: '', password_hash: expect.not.stringMatching(/^scrypt/), deleted_at: expect.any(Date) });
    expect((await t.db.query('SELECT name FROM accounts WHERE id = $1', [r.accountId]))[0].name).toBe('');
    expect(await t.db.query('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1', [r.userId])).toEqual([{ n: 0 }]);
    expect(await t.db.query('SELECT count(*)::int AS n FROM api_keys WHERE account_id = $1 AND revoked_at IS NULL', [r.accountId])).toEqual([{ n: 0 }]);

    // Both projects archived; the open task cancelled, the other worker's lease on it ended, the submission kept.
    const projects: Array<{ archived: boolean }> = await t.db.query('SELECT archived_at IS NOT NULL AS archived FROM projects WHERE id = ANY($1)', [[r.projectUuid, secondProject]]);
    expect(projects).toEqual([{ archived: true }, { archived: true }]);
    expect(await t.db.query('SELECT cancelled_at IS NOT NULL AS cancelled, submission_count FROM tasks WHERE id = $1', [open])).toEqual([{ cancelled: true, submission_count: 1 }]);
    expect(await t.db.query('SELECT state FROM checkouts WHERE id = $1', [othersLease.checkout_id])).toEqual([{ state: 'cancelled' }]);
    expect(await t.db.query('SELECT worker_id FROM submissions WHERE task_id = $1', [open])).toEqual([{ worker_id: w.userId }]);

    // The same email makes a new account, which logs in; the old one stays deleted.
    const again = await signUp(t, { email: r.email, password: 'a new beginning' });
    expect(again.userId).not.toBe(r.userId);
    expect((await logIn(r.email, 'a new beginning')).body.data.user.id).toBe(again.userId);
    // No one can sign up as a deleted account's address first.
    const squat = await t.request({ method: 'POST', url: '/api/session/signup', remoteAddress: '198.19.255.1', body: { email: `deleted-x@deleted.invalid`, password: PASSWORD, name: 'x' } });
    expect(squat).toMatchObject({ status: 422, body: { errors: [{ field: 'email', detail: expect.stringContaining('.invalid') }] } });
  });

  it('holds the user row: a second deletion and a log-in with the old password, both checked while the first is in flight, get nothing', async () => {
    const user = await signUp(t);
    const second = await logIn(user.email);
    const waiting = (statement: string) =>
      eventually(async () => (await t.db.query(`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1`, [`${statement}%`])).length > 0);
    // Holds the first deletion inside its transaction, past its lock of the user row: its DELETE of the sessions waits for this.
    const holder = await pgPool(t.db).connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM sessions WHERE user_id = $1 FOR UPDATE', [user.userId]);
      const first = deleteAccount(user);
      expect(await waiting('DELETE FROM sessions')).toBe(true);
      // Both check the password against the hash the first has not replaced yet, then wait for the user row.
      const again = deleteAccount({ ...user, auth: { authorization: `Bearer ${second.body.data.token}` } });
      const login = logIn(user.email);
      expect(await waiting('SELECT password_hash, deleted_at')).toBe(true);
      expect(await waiting('INSERT INTO sessions')).toBe(true);
      await holder.query('COMMIT');
      expect((await first).status).toBe(200);
      // The second finds the account deleted and answers as the first did; the log-in finds the hash changed.
      expect(await again).toMatchObject({ status: 200, body: { data: { deleted: true } } });
      expect((await login).status).toBe(401);
    } finally {
      holder.release();
    }
    expect(await t.db.query('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1', [user.userId])).toEqual([{ n: 0 }]);
    expect(await t.db.query('SELECT email FROM users WHERE id = $1', [user.userId])).toEqual([{ email: `deleted-${user.userId}@deleted.invalid` }]);
  });

  it('leaves nothing behind that was created while it ran: a key or a project made meanwhile waits for it and is refused', async () => {
    const r = await aRequester(t);
    const waiting = (statement: string) =>
      eventually(async () => (await t.db.query(`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1`, [`${statement}%`])).length > 0);
    const holder = await pgPool(t.db).connect();
    let key: TestResponse;
    let keyed: TestResponse;
    let plain: TestResponse;
    try {
      // Holds the deletion inside its transaction, past its revocation of the keys and archiving of the projects.
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM sessions WHERE user_id = $1 FOR UPDATE', [r.userId]);
      const deletion = deleteAccount(r);
      expect(await waiting('DELETE FROM sessions')).toBe(true);
      // The session still passes the guard (its row is not deleted yet); each creation waits for the user row.
      const creations = Promise.all([
        t.request({ method: 'POST', url: '/api/console/api_keys', headers: r.auth, body: { mode: 'live' } }),
        t.request({ method: 'POST', url: '/api/console/projects', headers: r.auth, body: { ...DEFAULT_PROJECT, name: 'meanwhile' } }),
        t.request({ method: 'POST', url: '/api/console/projects', headers: { ...r.auth, 'idempotency-key': 'meanwhile' }, body: { ...DEFAULT_PROJECT, name: 'keyed' } }),
      ]);
      await eventually(async () => (await t.db.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'SELECT 1 FROM users%'`))[0].n === 3, 3000);
      await holder.query('COMMIT');
      expect((await deletion).status).toBe(200);
      [key, keyed, plain] = await creations;
    } finally {
      holder.release();
    }
    // Refused as a request of an ended session is, and nothing made.
    for (const res of [key, keyed, plain]) expect(res).toMatchObject({ status: 401, body: { errors: [{ field: 'root', detail: 'the session has expired or was logged out; log in again' }] } });
    expect(await t.db.query('SELECT count(*)::int AS n FROM api_keys WHERE account_id = $1 AND revoked_at IS NULL', [r.accountId])).toEqual([{ n: 0 }]);
    expect(await t.db.query('SELECT count(*)::int AS n FROM projects WHERE account_id = $1 AND archived_at IS NULL', [r.accountId])).toEqual([{ n: 0 }]);
  });

  it('revokes a key whose creation began first: the deletion waits for it', async () => {
    const r = await aRequester(t);
    const waiting = (statement: string) =>
      eventually(async () => (await t.db.query(`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1`, [`${statement}%`])).length > 0);
    const holder = await pgPool(t.db).connect();
    let created: TestResponse;
    try {
      // Holds the creation inside its transaction, at its turn on the account row.
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [r.accountId]);
      const creation = t.request({ method: 'POST', url: '/api/console/api_keys', headers: r.auth, body: { mode: 'live' } });
      expect(await waiting('SELECT 1 FROM accounts')).toBe(true);
      const deletion = deleteAccount(r);
      // The deletion waits before it revokes anything (held by the creation, or without its lock by the holder).
      await eventually(async () => (await t.db.query(`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'SELECT password_hash, deleted_at%'`)).length > 0, 3000);
      await holder.query('COMMIT');
      created = await creation;
      expect((await deletion).status).toBe(200);
    } finally {
      holder.release();
    }
    expect(created.status).toBe(201);
    expect((await ping(created.body.data.secret)).status).toBe(401);
    expect(await t.db.query('SELECT count(*)::int AS n FROM api_keys WHERE account_id = $1 AND revoked_at IS NULL', [r.accountId])).toEqual([{ n: 0 }]);
  });

  it('releases the worker’s active leases and keeps their submissions in the requester’s results', async () => {
    const r1 = await aRequester(t);
    const r2 = await aRequester(t);
    const w = await signUp(t);
    const done = await aTask(t, r1, { required_submissions: 1 });
    const doneLease = await checkOut(t, w, r1.projectUuid);
    expect(doneLease.task_uuid).toBe(done);
    expect((await submitABox(t, w, doneLease.checkout_id)).status).toBe(201);
    const held = await aTask(t, r2, { required_submissions: 1 });
    const lease = await checkOut(t, w, r2.projectUuid);
    expect(lease.task_uuid).toBe(held);
    const annotations = (await t.request({ method: 'GET', url: `/api/v1/tasks/${done}/annotations`, headers: { apikey: r1.liveKey } })).body;

    expect((await deleteAccount(w)).status).toBe(200);

    expect(await t.db.query('SELECT state FROM checkouts WHERE id = $1', [lease.checkout_id])).toEqual([{ state: 'released' }]);
    // The slot is free: another worker gets the task at once.
    expect((await checkOut(t, await signUp(t), r2.projectUuid)).task_uuid).toBe(held);
    expect((await t.request({ method: 'GET', url: `/api/v1/tasks/${done}/annotations`, headers: { apikey: r1.liveKey } })).body).toEqual(annotations);
    expect(annotations.data.annotations).toEqual([expect.objectContaining({ support: 1 })]);
    expect(await t.db.query('SELECT worker_id FROM submissions WHERE task_id = $1', [done])).toEqual([{ worker_id: w.userId }]);
    // Its session is gone: the worker app is signed out.
    expect((await t.request({ method: 'GET', url: '/api/work/projects', headers: w.auth })).status).toBe(401);
  });

  it('sends nothing more to the account’s callback addresses: a retrying event and a pending challenge end failed', async () => {
    const r = await aRequester(t);
    const w = await signUp(t);
    // The address is confirmed and works: the first event is delivered.
    await completeTaskWithCallback(t, r, w, receiver.url('/deleted'));
    expect(await eventually(() => receiver.events('/deleted').length === 1)).toBe(true);
    // The second event is refused once, to be tried again in 4 s: the account is deleted meanwhile.
    receiver.on('/deleted', (req) => (req.json?.event === 'task_completed' && receiver.events('/deleted').length === 2 ? { status: 503, headers: { 'retry-after': '4' } } : { status: 200 }));
    const second = await completeTaskWithCallback(t, r, w, receiver.url('/deleted'));
    expect(await eventually(() => receiver.events('/deleted').length === 2)).toBe(true);
    // An address whose challenge is refused, to be tried again in 4 s.
    receiver.on('/unconfirmed', () => ({ status: 503, headers: { 'retry-after': '4' } }));
    await completeTaskWithCallback(t, r, w, receiver.url('/unconfirmed'));
    expect(await eventually(() => receiver.at('/unconfirmed').length === 1)).toBe(true);

    expect((await deleteAccount(r)).status).toBe(200);

    const ended = await eventually(async () => {
      const [event] = await t.db.query('SELECT state, last_error FROM webhook_events WHERE task_id = $1', [second]);
      return event.state === 'failed' && event;
    });
    expect(ended).toEqual({ state: 'failed', last_error: ACCOUNT_DELETED });
    const address = await eventually(async () => {
      const [endpoint] = await t.db.query(`SELECT state, last_error FROM webhook_endpoints WHERE account_id = $1 AND url LIKE '%/unconfirmed'`, [r.accountId]);
      return endpoint.state === 'failed' && endpoint;
    });
    expect(address).toEqual({ state: 'failed', last_error: ACCOUNT_DELETED });
    // Past the relay's grace and the old schedule: nothing more arrived.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.events('/deleted')).toHaveLength(2);
    expect(receiver.at('/unconfirmed')).toHaveLength(1);
  });
});
