import { signUp } from '../../../test/factories';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { SessionPruning } from '../session-pruning';

describe('expired sessions are deleted', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('deletes every expired session, a batch at a time, and keeps the live ones working', async () => {
    const live = await signUp(t);
    const gone = await signUp(t);
    await t.db.query(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [gone.userId]);
    // More than one batch of old sessions, as years of log-ins leave.
    await t.db.query(
      `INSERT INTO sessions (id, user_id, token_hash, expires_at)
       SELECT gen_random_uuid(), $1, md5(g::text), now() - make_interval(days => g % 400 + 1) FROM generate_series(1, 2500) AS g`,
      [gone.userId],
    );
    expect(await t.app.get(SessionPruning).prune()).toBe(2501);
    expect(Number((await t.db.query('SELECT count(*) AS n FROM sessions WHERE expires_at < now()'))[0].n)).toBe(0);
    expect((await t.request({ method: 'GET', url: '/api/session/me', headers: live.auth })).status).toBe(200);
    expect(await t.app.get(SessionPruning).prune()).toBe(0);
  });

  it('is not run by an HTTP-only process', async () => {
    const http = await startTestApp({}, { role: 'http' });
    try {
      expect(() => http.app.get(SessionPruning)).toThrow();
    } finally {
      await http.close();
    }
  });
});
