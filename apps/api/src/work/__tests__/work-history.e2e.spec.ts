import { A_BOX, aRequester, aTask, checkOut, signUp, submitABox, type Requester, type SignedIn } from '../../../test/factories';
import { CURSOR_ERROR, LIMIT_ERROR, REFUSED_LIMITS, refusedCursors } from '../../../test/page-query';
import { startTestApp, type TestApp } from '../../../test/test-app';

describe('worker history GET /api/work/submissions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const history = (w: SignedIn | null, query = '') =>
    t.request({ method: 'GET', url: `/api/work/submissions${query}`, headers: w ? w.auth : {} });

  /** Adds a task, has `w` check it out and submit `boxes` boxes; the submission's id. */
  const submitTask = async (r: Requester, w: SignedIn, boxes: number, fields: Record<string, unknown> = {}) => {
    const taskUuid = await aTask(t, r, fields);
    const lease = await checkOut(t, w, r.projectUuid);
    expect(lease.task_uuid).toBe(taskUuid);
    const annotations = Array.from({ length: boxes }, (_, i) => ({ ...A_BOX, center_x: A_BOX.center_x + 50 * i }));
    const res = await submitABox(t, w, lease.checkout_id, { annotations });
    expect(res.status).toBe(201);
    return { submissionId: res.body.data.submission_id as string, taskUuid };
  };

  /** Every page of `w`'s history at `limit` a page: the submissions' ids in the order shown, and the pages' sizes. */
  const allPages = async (w: SignedIn, limit: number) => {
    const ids: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    do {
      const res = await history(w, `?limit=${limit}${cursor ? `&before=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status).toBe(200);
      ids.push(...res.body.data.map((s: { submission_id: string }) => s.submission_id));
      sizes.push(res.body.data.length);
      cursor = res.body.next_cursor;
    } while (cursor !== null && sizes.length < 20);
    return { ids, sizes };
  };

  it('lists the worker’s submissions with project, task, boxes, reward and completion', async () => {
    const r = await aRequester(t, { display_name: 'Street cars' });
    const w = await signUp(t);
    const first = await submitTask(r, w, 2, { reward: 40, required_submissions: 1 });
    const second = await submitTask(r, w, 3, { reward: 7 });

    const res = await history(w);
    expect(res.status).toBe(200);
    expect(res.body.next_cursor).toBeNull();
    expect(res.body.data).toEqual([
      {
        submission_id: second.submissionId,
        submitted_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        project: { uuid: r.projectUuid, display_name: 'Street cars' },
        task_uuid: second.taskUuid,
        box_count: 3,
        reward: 7,
        task_complete: false,
        task_cancelled: false,
      },
      {
        submission_id: first.submissionId,
        submitted_at: expect.any(String),
        project: { uuid: r.projectUuid, display_name: 'Street cars' },
        task_uuid: first.taskUuid,
        box_count: 2,
        reward: 40,
        task_complete: true,
        task_cancelled: false,
      },
    ]);
    expect(Date.parse(res.body.data[0].submitted_at)).toBeGreaterThanOrEqual(Date.parse(res.body.data[1].submitted_at));
  });

  it('says when the requester cancelled a task the worker submitted to, which then never completes', async () => {
    const r = await aRequester(t);
    const w = await signUp(t);
    const { taskUuid } = await submitTask(r, w, 1, { required_submissions: 2 });
    const cancel = await t.request({ method: 'POST', url: `/api/console/projects/${r.projectUuid}/tasks/${taskUuid}/cancel`, headers: r.auth });
    expect(cancel.status).toBe(200);
    const [row] = (await history(w)).body.data;
    expect(row).toMatchObject({ task_uuid: taskUuid, task_complete: false, task_cancelled: true, reward: expect.any(Number) });
  });

  it('pages newest first by (submitted_at, id): every submission once, across equal and sub-millisecond timestamps', async () => {
    const r = await aRequester(t);
    const w = await signUp(t);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await submitTask(r, w, 1)).submissionId);
    // Four at the same microsecond (ties broken by id, across page ends at limit 2 and 3), two within one
    // millisecond (a cursor cut to milliseconds would skip or repeat one), one older.
    const at = ['2026-11-20 10:00:00.000007+00', '2026-11-20 10:00:00.000007+00', '2026-11-20 10:00:00.000007+00', '2026-11-20 10:00:00.000007+00', '2026-11-20 10:00:00.000003+00', '2026-11-20 10:00:00.000001+00', '2026-11-19 08:00:00+00'];
    for (let i = 0; i < ids.length; i++) await t.db.query(`UPDATE submissions SET created_at = $2 WHERE id = $1`, [ids[i], at[i]]);
    const expected: string[] = (
      await t.db.query(`SELECT id FROM submissions WHERE worker_id = $1 ORDER BY created_at DESC, id DESC`, [w.userId])
    ).map((row: { id: string }) => row.id);
    expect(new Set(expected)).toEqual(new Set(ids));

    for (const limit of [1, 2, 3, 7, 100]) {
      const { ids: shown, sizes } = await allPages(w, limit);
      expect(shown).toEqual(expected);
      // A full last page says there is no next one only when one more row was not there.
      expect(sizes).toEqual(limit >= 7 ? [7] : [...Array(Math.floor(7 / limit)).fill(limit), ...(7 % limit ? [7 % limit] : [])]);
    }
    // The default page (50) holds them all.
    const whole = await history(w);
    expect(whole.body.data.map((s: { submission_id: string }) => s.submission_id)).toEqual(expected);
    expect(whole.body.next_cursor).toBeNull();
  });

  it('shows only the caller’s own submissions, not other workers’ on the same tasks', async () => {
    const r = await aRequester(t);
    const [w1, w2, idle] = await Promise.all([signUp(t), signUp(t), signUp(t)]);
    const mine = await submitTask(r, w1, 1);
    // w2 takes the same task (3 submissions required) and submits it too.
    const lease = await checkOut(t, w2, r.projectUuid);
    expect(lease.task_uuid).toBe(mine.taskUuid);
    const theirs = await submitABox(t, w2, lease.checkout_id);
    expect(theirs.status).toBe(201);

    expect((await history(w1)).body.data.map((s: { submission_id: string }) => s.submission_id)).toEqual([mine.submissionId]);
    expect((await history(w2)).body.data.map((s: { submission_id: string }) => s.submission_id)).toEqual([theirs.body.data.submission_id]);
    // The requester's own account submitted nothing; a new worker has an empty history.
    expect((await history(idle)).body).toEqual({ data: [], next_cursor: null });
    expect((await history(r)).body).toEqual({ data: [], next_cursor: null });
  });

  it('refuses a bad limit or cursor with 422 in the error shape', async () => {
    const w = await signUp(t);
    for (const limit of REFUSED_LIMITS) {
      const res = await history(w, `?limit=${encodeURIComponent(limit)}`);
      expect({ limit, status: res.status, body: res.body }).toEqual({ limit, status: 422, body: LIMIT_ERROR });
    }
    const uuid = '3f1c2a4e-8b7d-4c6e-9a1f-0d2b3c4e5f60';
    for (const before of refusedCursors(uuid)) {
      const res = await history(w, `?before=${encodeURIComponent(before)}`);
      expect({ before, status: res.status, body: res.body }).toEqual({ before, status: 422, body: CURSOR_ERROR });
    }
    // A repeated parameter is not a cursor either.
    const twice = await history(w, `?before=${encodeURIComponent(`2026-11-20T10:00:00.000007Z|${uuid}`)}&before=x`);
    expect(twice.status).toBe(422);
    // A well-formed cursor no submission has is just a place in time: an empty page.
    const nowhere = await history(w, `?before=${encodeURIComponent(`2026-11-20T10:00:00.000007Z|${uuid}`)}&limit=5`);
    expect(nowhere.status).toBe(200);
    expect(nowhere.body).toEqual({ data: [], next_cursor: null });
  });

  it('answers 401 when signed out', async () => {
    const res = await history(null);
    expect(res.status).toBe(401);
    expect(res.body.errors).toEqual([expect.objectContaining({ field: 'root' })]);
  });
});
