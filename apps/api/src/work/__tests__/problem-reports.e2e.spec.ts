import { aRequester, aTask, checkOut as checkOutIn, signUp, submitABox, type Requester, type SignedIn } from '../../../test/factories';
import { tableReads } from '../../../test/query-plan';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { taskListSql } from '../../console/console-tasks.service';
import { TaskProblemReports1766400000000 } from '../../database/migrations/1766400000000-task-problem-reports';
import { ReportedTasksIndex1766500000000 } from '../../database/migrations/1766500000000-reported-tasks-index';
import { expireLeases } from '../lease-expiry';

/**
 * A worker who gives a task back may say what is wrong with it (docs/decisions.md, "Problem reports"),
 * and the task's owner sees it on the task, in the task list and in the project's progress.
 */
describe('problem reports: POST /api/work/checkouts/:id/release with a problem', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const newTask = (r: Requester, required = 1) => aTask(t, r, { required_submissions: required });
  const checkOut = (w: SignedIn, r: Requester) => checkOutIn(t, w, r.projectUuid);
  const release = (w: SignedIn, checkoutId: string, body?: Record<string, unknown>) =>
    t.request({ method: 'POST', url: `/api/work/checkouts/${checkoutId}/release`, headers: w.auth, ...(body ? { body } : {}) });
  const submit = (w: SignedIn, checkoutId: string) => submitABox(t, w, checkoutId);
  const console = (r: Requester, path: string) => t.request({ method: 'GET', url: `/api/console/projects/${r.projectUuid}${path}`, headers: r.auth });
  const problemOf = async (checkoutId: string): Promise<string | null> =>
    (await t.db.query('SELECT problem FROM checkouts WHERE id = $1', [checkoutId]))[0].problem;
  const reportsOn = async (taskId: string): Promise<number> =>
    (await t.db.query('SELECT problem_reports FROM tasks WHERE id = $1', [taskId]))[0].problem_reports;
  const reportedList = async (r: Requester) => (await console(r, '/tasks?reported=true')).body.data.map((row: { task_uuid: string }) => row.task_uuid);

  it('keeps the problem, and shows the owner each kind counted on the task, its row, the progress and a filter', async () => {
    const r = await aRequester(t);
    const reported = await newTask(r, 3);
    const quiet = await newTask(r, 3);
    const [w1, w2, w3] = await Promise.all([signUp(t), signUp(t), signUp(t)]);

    const l1 = await checkOut(w1, r);
    expect(l1.task_uuid).toBe(reported);
    expect(await release(w1, l1.checkout_id, { problem: 'image_broken' })).toMatchObject({ status: 200, body: { data: { checkout_id: l1.checkout_id, state: 'released' } } });
    const l2 = await checkOut(w2, r);
    expect((await release(w2, l2.checkout_id, { problem: 'image_broken' })).status).toBe(200);
    const l3 = await checkOut(w3, r);
    expect((await release(w3, l3.checkout_id, { problem: 'unclear_instructions' })).status).toBe(200);
    // A plain skip reports nothing.
    const l4 = await checkOut(w1, r);
    expect(l4.task_uuid).toBe(quiet);
    expect((await release(w1, l4.checkout_id)).status).toBe(200);
    expect(await problemOf(l4.checkout_id)).toBeNull();

    const detail = await console(r, `/tasks/${reported}`);
    expect(detail.status).toBe(200);
    expect(detail.body.data.problem_reports).toBe(3);
    expect(detail.body.data.problems).toEqual([
      { problem: 'image_broken', count: 2, last_reported_at: expect.any(String) },
      { problem: 'unclear_instructions', count: 1, last_reported_at: expect.any(String) },
    ]);
    expect((await console(r, `/tasks/${quiet}`)).body.data).toMatchObject({ problem_reports: 0, problems: [] });

    const rows = (await console(r, '/tasks')).body.data as Array<{ task_uuid: string; problem_reports: number }>;
    expect(Object.fromEntries(rows.map((row) => [row.task_uuid, row.problem_reports]))).toEqual({ [reported]: 3, [quiet]: 0 });
    const filtered = await console(r, '/tasks?reported=true');
    expect(filtered.body.data.map((row: { task_uuid: string }) => row.task_uuid)).toEqual([reported]);
    expect((await console(r, '/tasks?reported=true&state=complete')).body.data).toEqual([]);
    expect(await console(r, '/tasks?reported=yes')).toMatchObject({ status: 422, body: { errors: [{ field: 'reported', detail: 'must be true, or left out' }] } });

    expect((await console(r, '/progress')).body.data.tasks).toMatchObject({ outstanding: 2, reported: 1 });
  });

  it('counts only outstanding tasks as reported in the progress, and keeps the reports on a task completed since', async () => {
    const r = await aRequester(t);
    const taskId = await newTask(r, 1);
    const [w1, w2] = await Promise.all([signUp(t), signUp(t)]);
    const l1 = await checkOut(w1, r);
    expect((await release(w1, l1.checkout_id, { problem: 'other' })).status).toBe(200);
    expect((await console(r, '/progress')).body.data.tasks.reported).toBe(1);

    const l2 = await checkOut(w2, r);
    expect((await submit(w2, l2.checkout_id)).status).toBe(201);
    expect((await console(r, '/progress')).body.data.tasks).toMatchObject({ complete: 1, reported: 0 });
    expect((await console(r, `/tasks/${taskId}`)).body.data).toMatchObject({ state: 'complete', problem_reports: 1, problems: [{ problem: 'other', count: 1 }] });
  });

  it('refuses an unknown problem, a misspelt field or a body that is no object in the contract’s shape, and leaves the lease held', async () => {
    const r = await aRequester(t);
    await newTask(r);
    const w = await signUp(t);
    const lease = await checkOut(w, r);
    const oneOf = 'must be one of image_broken, unclear_instructions, offensive_content, other';
    const refused: Array<[unknown, { field: string; detail: string }]> = [
      [{ problem: 'broken' }, { field: 'problem', detail: oneOf }],
      [{ problem: '' }, { field: 'problem', detail: oneOf }],
      [{ problem: 42 }, { field: 'problem', detail: oneOf }],
      // Read as {} (a plain skip), these would give the task back with the report lost.
      [{ problm: 'other' }, { field: 'root', detail: 'has no field problm (only problem)' }],
      ['image_broken', { field: 'root', detail: 'must be a JSON object' }],
      [['other'], { field: 'root', detail: 'must be a JSON object' }],
      [7, { field: 'root', detail: 'must be a JSON object' }],
    ];
    for (const [body, error] of refused) {
      const res = await t.request({
        method: 'POST',
        url: `/api/work/checkouts/${lease.checkout_id}/release`,
        headers: { ...w.auth, 'content-type': 'application/json' },
        body: JSON.stringify(body), // as JSON, whatever its type
      });
      expect({ body, status: res.status, answer: res.body }).toEqual({ body, status: 422, answer: { errors: [error] } });
    }
    const state = await t.db.query('SELECT state, problem FROM checkouts WHERE id = $1', [lease.checkout_id]);
    expect(state).toEqual([{ state: 'active', problem: null }]);
    // null is no value, as in every other body: a plain skip.
    expect(await release(w, lease.checkout_id, { problem: null })).toMatchObject({ status: 200, body: { data: { state: 'released' } } });
    expect(await problemOf(lease.checkout_id)).toBeNull();
  });

  it('keeps a report sent after the lease ran out, but never replaces one, and never marks a submitted or another worker’s lease', async () => {
    const r = await aRequester(t);
    await newTask(r, 2);
    await newTask(r, 2); // w1's second lease, below
    const [w1, w2] = await Promise.all([signUp(t), signUp(t)]);
    const ranOut = await checkOut(w1, r);
    // Its time ran out and the sweep ended it while the worker chose the reason.
    await t.db.query(`UPDATE checkouts SET expires_at = now() - interval '1 second', checked_out_at = now() - interval '1 hour' WHERE id = $1`, [ranOut.checkout_id]);
    expect(await expireLeases(t.db)).toContain(ranOut.checkout_id);
    expect(await release(w1, ranOut.checkout_id, { problem: 'offensive_content' })).toMatchObject({ status: 200, body: { data: { state: 'expired' } } });
    expect(await problemOf(ranOut.checkout_id)).toBe('offensive_content');
    // Sent again (a retry), or with another reason: the first stays.
    expect((await release(w1, ranOut.checkout_id, { problem: 'other' })).status).toBe(200);
    expect(await problemOf(ranOut.checkout_id)).toBe('offensive_content');

    // A lease that ended more than 15 minutes ago takes no report: old skips cannot be gone over.
    const old = await checkOut(w1, r);
    expect((await release(w1, old.checkout_id)).status).toBe(200);
    await t.db.query(`UPDATE checkouts SET ended_at = now() - interval '16 minutes' WHERE id = $1`, [old.checkout_id]);
    expect(await release(w1, old.checkout_id, { problem: 'other' })).toMatchObject({ status: 200, body: { data: { state: 'released' } } });
    expect(await problemOf(old.checkout_id)).toBeNull();

    const submitted = await checkOut(w2, r);
    expect((await submit(w2, submitted.checkout_id)).status).toBe(201);
    expect((await release(w1, submitted.checkout_id, { problem: 'other' })).status).toBe(404);
    expect((await release(w2, submitted.checkout_id, { problem: 'other' })).status).toBe(422);
    expect(await problemOf(submitted.checkout_id)).toBeNull();
  });

  it('ends a lease released long after its time ran out (its expiry job not run) when its time ran out, and keeps no report on it', async () => {
    const r = await aRequester(t);
    const taskId = await newTask(r, 2);
    const [w1, w2] = await Promise.all([signUp(t), signUp(t)]);
    const stale = await checkOut(w1, r);
    await t.db.query(`UPDATE checkouts SET expires_at = now() - interval '1 hour', checked_out_at = now() - interval '2 hours' WHERE id = $1`, [stale.checkout_id]);
    expect(await release(w1, stale.checkout_id, { problem: 'image_broken' })).toMatchObject({ status: 200, body: { data: { state: 'expired' } } });
    const [row] = await t.db.query(`SELECT problem, ended_at = expires_at AS at_expiry FROM checkouts WHERE id = $1`, [stale.checkout_id]);
    expect(row).toEqual({ problem: null, at_expiry: true });
    expect(await reportsOn(taskId)).toBe(0);
    // Sent again, it is a late report on a lease that ended an hour ago: refused as well.
    expect((await release(w1, stale.checkout_id, { problem: 'image_broken' })).status).toBe(200);
    expect(await problemOf(stale.checkout_id)).toBeNull();

    // One whose time ran out a minute ago is within the window: its report is kept, and it ended when its time ran out.
    const recent = await checkOut(w2, r);
    await t.db.query(`UPDATE checkouts SET expires_at = now() - interval '1 minute', checked_out_at = now() - interval '1 hour' WHERE id = $1`, [recent.checkout_id]);
    expect(await release(w2, recent.checkout_id, { problem: 'other' })).toMatchObject({ status: 200, body: { data: { state: 'expired' } } });
    const [kept] = await t.db.query(`SELECT problem, ended_at = expires_at AS at_expiry FROM checkouts WHERE id = $1`, [recent.checkout_id]);
    expect(kept).toEqual({ problem: 'other', at_expiry: true });
    expect(await reportsOn(taskId)).toBe(1);
  });

  it('keeps each task’s count of reports with its leases’, whatever statement sets, changes, clears or deletes one', async () => {
    const r = await aRequester(t);
    const taskId = await newTask(r, 3);
    const [w1, w2] = await Promise.all([signUp(t), signUp(t)]);
    const l1 = await checkOut(w1, r);
    expect((await release(w1, l1.checkout_id, { problem: 'other' })).status).toBe(200);
    const l2 = await checkOut(w2, r);
    expect((await release(w2, l2.checkout_id)).status).toBe(200);
    expect(await reportsOn(taskId)).toBe(1);
    // A late report counts once, and a retry with another reason not again.
    expect((await release(w2, l2.checkout_id, { problem: 'image_broken' })).status).toBe(200);
    expect((await release(w2, l2.checkout_id, { problem: 'other' })).status).toBe(200);
    expect(await reportsOn(taskId)).toBe(2);
    await t.db.query(`UPDATE checkouts SET problem = 'unclear_instructions' WHERE id = $1`, [l1.checkout_id]);
    expect(await reportsOn(taskId)).toBe(2);
    await t.db.query(`UPDATE checkouts SET problem = NULL WHERE id = $1`, [l1.checkout_id]);
    expect(await reportsOn(taskId)).toBe(1);
    await t.db.query(`DELETE FROM checkouts WHERE id = $1`, [l2.checkout_id]);
    expect(await reportsOn(taskId)).toBe(0);
    expect(await reportedList(r)).toEqual([]);
    expect((await console(r, '/progress')).body.data.tasks.reported).toBe(0);
  });

  it('counts the reports kept before the count existed (migration 1766400000000)', async () => {
    const r = await aRequester(t);
    const taskId = await newTask(r, 2);
    const w = await signUp(t);
    const lease = await checkOut(w, r);
    const q = t.db.createQueryRunner();
    try {
      await new ReportedTasksIndex1766500000000().down(q);
      await new TaskProblemReports1766400000000().down(q);
      expect((await release(w, lease.checkout_id, { problem: 'image_broken' })).status).toBe(200);
      await new TaskProblemReports1766400000000().up(q);
      await new ReportedTasksIndex1766500000000().up(q);
    } finally {
      await q.release();
    }
    expect(await reportsOn(taskId)).toBe(1);
    expect(await reportedList(r)).toEqual([taskId]);
  });

  it('lists a project’s reported tasks through ix_tasks_reported, not by walking its other tasks', async () => {
    const r = await aRequester(t);
    const reported = await newTask(r, 2);
    const w = await signUp(t);
    const lease = await checkOut(w, r);
    expect((await release(w, lease.checkout_id, { problem: 'image_broken' })).status).toBe(200);
    // 5,000 newer tasks nobody reported, which the list once walked newest first before finding that one.
    await t.db.query(
      `INSERT INTO tasks (id, project_id, prompt, reward, required_submissions, allowed_completion_time_seconds, created_at)
       SELECT gen_random_uuid(), $1, 'p', 1, 2, 600, now() + n * interval '1 millisecond' FROM generate_series(1, 5000) n`,
      [r.projectUuid],
    );
    await t.db.query('ANALYZE tasks');
    for (const filter of [{ reported: true }, { reported: true, state: 'incomplete' as const }]) {
      expect({ filter, tasksReadBy: await tableReads(t.db, taskListSql(filter, 51), [r.projectUuid], 'tasks') }).toEqual({ filter, tasksReadBy: ['ix_tasks_reported'] });
    }
    expect(await reportedList(r)).toEqual([reported]);
  });

  it('holds a problem only on a lease that ended unsubmitted, whatever statement writes it', async () => {
    const r = await aRequester(t);
    await newTask(r);
    const w = await signUp(t);
    const lease = await checkOut(w, r);
    await expect(t.db.query(`UPDATE checkouts SET problem = 'other' WHERE id = $1`, [lease.checkout_id])).rejects.toThrow(/ck_checkouts_problem/);
    await expect(
      t.db.query(`UPDATE checkouts SET state = 'released', ended_at = now(), problem = 'bad' WHERE id = $1`, [lease.checkout_id]),
    ).rejects.toThrow(/ck_checkouts_problem/);
  });
});
