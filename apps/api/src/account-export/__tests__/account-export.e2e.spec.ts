import { ACCOUNT_EXPORT_FORMAT, type AccountExport, type SessionInfo } from '@crowdbox/contracts';
import { A_BOX, aCompletedTask, aRequester, aTask, checkOut, createApiKey, signUp, submitABox, type SignedIn } from '../../../test/factories';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { submitInDb } from '../../../test/work-fixtures';
import { pgPool } from '../../database/prepared-statement';
import { EXPORT_SUBMISSIONS_PAGE, MAX_EXPORTS_PER_PROCESS } from '../account-export.service';
import { eventually } from '../../../test/eventually';

/** GET /api/session/export (docs/decisions.md, "Downloading your data"). */
describe('downloading your data', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const download = (u: SignedIn) => t.request({ method: 'GET', url: '/api/session/export', headers: u.auth });
  const consoleData = async (u: SignedIn, url: string) => (await t.request({ method: 'GET', url, headers: u.auth })).body.data;

  it("is one JSON file of the user's account, as the console shows it, and their submissions as a worker, with no secret", async () => {
    // A user who is a requester (a project, keys, a webhook address, a blocked worker) and a worker elsewhere.
    const r = await aRequester(t);
    const careless = await signUp(t);
    const taskUuid = await aCompletedTask(t, r, careless, { callback_url: 'https://hooks.example.invalid/crowdbox' });
    const [{ worker: pseudonym }] = (
      await t.request({ method: 'GET', url: `/api/v1/tasks/${taskUuid}/annotations?view=submissions`, headers: { apikey: r.liveKey } })
    ).body.data.submissions;
    expect((await t.request({ method: 'POST', url: `/api/console/projects/${r.projectUuid}/workers/${pseudonym}/block`, headers: r.auth })).status).toBe(200);
    const elsewhere = await aRequester(t);
    const drawn = [A_BOX, { label: 'car', center_x: 300, center_y: 200, width: 120, height: 60 }];
    const firstTask = await aTask(t, elsewhere, { required_submissions: 2 });
    const lease = await checkOut(t, r, elsewhere.projectUuid);
    const sent = await submitABox(t, r, lease.checkout_id, { annotations: drawn, image_width: 800, image_height: 600 });
    expect(sent.status).toBe(201);
    const secondTask = await aCompletedTask(t, elsewhere, r);

    const res = await download(r);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="crowdbox-account-\d{4}-\d{2}-\d{2}\.json"$/);
    const data = JSON.parse(res.text) as AccountExport;
    expect(data.format).toBe(ACCOUNT_EXPORT_FORMAT);
    expect(Date.parse(data.exported_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(data.user).toEqual((await consoleData(r, '/api/session/me')).user);
    expect(data.account).toEqual({ id: r.accountId, name: expect.any(String), created_at: expect.any(String) });
    // As the list answers them, but for last_used_at, which the download's own use may have written since.
    const withoutUse = (list: SessionInfo[]) => list.map((s) => ({ ...s, last_used_at: null }));
    expect(withoutUse(data.sessions)).toEqual(withoutUse(await consoleData(r, '/api/session/sessions')));
    expect(data.sessions.map((s) => s.current)).toEqual([true]);
    expect(data.api_keys).toEqual(await consoleData(r, '/api/console/api_keys'));
    expect(data.api_keys).toHaveLength(2);
    expect(data.projects).toEqual(await consoleData(r, '/api/console/projects'));
    expect(data.webhook_endpoints).toEqual((await consoleData(r, '/api/console/webhooks')).endpoints);
    expect(data.webhook_endpoints.map((e) => e.url)).toEqual(['https://hooks.example.invalid/crowdbox']);
    expect(data.blocked_workers).toEqual(await consoleData(r, '/api/console/blocked_workers'));
    expect(data.blocked_workers.map((b) => b.worker)).toEqual([pseudonym]);
    expect(data.submissions).toEqual([
      {
        submission_id: expect.any(String),
        submitted_at: expect.any(String),
        project: { uuid: elsewhere.projectUuid, display_name: 'Find the cars' },
        task_uuid: secondTask,
        image_width: 640,
        image_height: 480,
        boxes: [A_BOX],
        reward: expect.any(Number),
      },
      expect.objectContaining({ task_uuid: firstTask, image_width: 800, image_height: 600, boxes: drawn }),
    ]);
    // The work history lists the same submissions.
    expect(data.submissions.map((s) => s.submission_id)).toEqual((await consoleData(r, '/api/work/submissions')).map((s: { submission_id: string }) => s.submission_id));

    // Nothing that signs in or signs: no session token, key secret or hash, password hash or signing secret.
    const secrets: Array<{ secret: string }> = await t.db.query(
      `SELECT secret_hash AS secret FROM api_keys WHERE account_id = $1
       UNION ALL SELECT webhook_signing_secret FROM accounts WHERE id = $1
       UNION ALL SELECT password_hash FROM users WHERE id = $2
       UNION ALL SELECT token_hash FROM sessions WHERE user_id = $2`,
      [r.accountId, r.userId],
    );
    for (const value of [r.token, r.liveKey, r.testKey, ...secrets.map((s) => s.secret)]) expect(res.text).not.toContain(value);
    expect(res.text).not.toMatch(/whsec_|password|token/i);
  });

  it(`holds every submission once, newest first, past ${EXPORT_SUBMISSIONS_PAGE} and within one microsecond`, async () => {
    const worker = await signUp(t);
    const r = await aRequester(t);
    const count = EXPORT_SUBMISSIONS_PAGE * 2 + 7;
    const added = await t.request({
      method: 'POST',
      url: '/api/v1/projects/add_tasks',
      headers: { apikey: r.liveKey },
      body: { project_uuid: r.projectUuid, tasks: Array.from({ length: count }, () => ({ substitutions: { object: 'car' }, required_submissions: 1 })) },
    });
    expect(added.status).toBe(201);
    const taskIds: string[] = added.body.data.map((task: { task_uuid: string }) => task.task_uuid);
    // Groups of ten submissions made in the same microsecond, two groups a microsecond apart in each
    // millisecond, so pages end inside groups: a cursor that lost the id, or the microseconds, would skip
    // or repeat some.
    const ids: string[] = [];
    for (const [i, taskId] of taskIds.entries()) {
      const second = String(Math.floor(i / 20) % 60).padStart(2, '0');
      const minute = String(Math.floor(i / 1200)).padStart(2, '0');
      const submittedAt = `2026-01-01T00:${minute}:${second}.00000${Math.floor(i / 10) % 2}Z`;
      ids.push(await submitInDb(t.db, { taskId, workerId: worker.userId, boxes: [A_BOX], submittedAt }));
    }
    const data = JSON.parse((await download(worker)).text) as AccountExport;
    expect(data.submissions).toHaveLength(count);
    expect(new Set(data.submissions.map((s) => s.submission_id))).toEqual(new Set(ids));
    const times = data.submissions.map((s) => s.submitted_at);
    expect(times).toEqual([...times].sort().reverse());
  });

  it('makes one file at a time per user and at most MAX_EXPORTS_PER_PROCESS at once; more answer 429 with Retry-After', async () => {
    const users = await Promise.all(Array.from({ length: MAX_EXPORTS_PER_PROCESS + 1 }, () => signUp(t)));
    const holder = await pgPool(t.db).connect();
    try {
      // The files' first reads wait behind this lock, so the exports stay in progress.
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE accounts IN ACCESS EXCLUSIVE MODE');
      const running = users.slice(0, MAX_EXPORTS_PER_PROCESS).map((u) => download(u));
      await eventually(async () => (await t.db.query(`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'SELECT id, name, created_at FROM accounts%'`)).length === MAX_EXPORTS_PER_PROCESS);
      for (const [u, detail] of [
        [users[0], /^your data file is being made already; wait for it to finish; retry in 10 s$/],
        [users[MAX_EXPORTS_PER_PROCESS], /^other data files are being made; retry in 10 s$/],
      ] as const) {
        const refused = await download(u);
        expect(refused.status).toBe(429);
        expect(refused.body).toEqual({ errors: [{ field: 'root', detail: expect.stringMatching(detail) }] });
        expect(refused.headers['retry-after']).toBe('10');
      }
      await holder.query('COMMIT');
      expect((await Promise.all(running)).map((res) => res.status)).toEqual(users.slice(0, MAX_EXPORTS_PER_PROCESS).map(() => 200));
    } finally {
      holder.release();
    }
    // Each gave its place back.
    for (const u of users) expect((await download(u)).status).toBe(200);
  });

  it('refuses a download another site starts (a link or a navigation from its page), 403 in the contract shape', async () => {
    const u = await signUp(t);
    for (const site of ['cross-site', 'same-site']) {
      const res = await t.request({ method: 'GET', url: '/api/session/export', headers: { ...u.auth, 'sec-fetch-site': site } });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ errors: [{ field: 'root', detail: expect.stringMatching(/^requests from other sites are refused/) }] });
    }
    for (const site of ['same-origin', 'none']) {
      expect((await t.request({ method: 'GET', url: '/api/session/export', headers: { ...u.auth, 'sec-fetch-site': site } })).status).toBe(200);
    }
  });

  it("holds nothing of another user's, and a new user's file is empty lists", async () => {
    const r = await aRequester(t);
    await createApiKey(t, r);
    await aCompletedTask(t, r, await signUp(t));
    const newcomer = await signUp(t);
    const res = await download(newcomer);
    const data = JSON.parse(res.text) as AccountExport;
    expect(data).toMatchObject({ api_keys: [], projects: [], webhook_endpoints: [], blocked_workers: [], submissions: [] });
    expect(data.user.id).toBe(newcomer.userId);
    expect(res.text).not.toContain(r.projectUuid);
    expect(res.text).not.toContain(r.accountId);
  });
});
