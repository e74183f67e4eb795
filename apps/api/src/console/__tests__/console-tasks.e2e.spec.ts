import { Client } from 'pg';
import { aCompletedTask, aRequester, aTask, addTask, checkOut, signUp, submitABox, type Requester, type SignedIn } from '../../../test/factories';
import { ADMIN_URL, createTestDatabase, dropTestDatabase } from '../../../test/test-database';
import { CURSOR_ERROR, LIMIT_ERROR, REFUSED_LIMITS, refusedCursors } from '../../../test/page-query';
import { tableReads } from '../../../test/query-plan';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { randomUUID } from 'node:crypto';
import { workerPseudonym } from '../../submissions/worker-pseudonym';
import { taskListSql } from '../console-tasks.service';

const BOX = { label: 'car', center_x: 100, center_y: 80, width: 40, height: 30 };

describe('console task views /api/console/projects/:uuid/…', () => {
  let t: TestApp;
  let r: Requester;
  let workers: SignedIn[];
  const tasks: string[] = [];
  beforeAll(async () => {
    t = await startTestApp();
    r = await aRequester(t);
    workers = [await signUp(t), await signUp(t)];
    for (let i = 0; i < 4; i++) {
      const res = await addTask(t, r.liveKey, { project_uuid: r.projectUuid, substitutions: { object: 'car' }, required_submissions: 2, reward: 10 * (i + 1), external_image_url: `https://images.example.com/${i}.jpg` });
      tasks.push(res.body.data.task_uuid);
    }
    // Task 0 complete (two workers), task 1 with one submission and one lease, tasks 2 and 3 cancelled after.
    for (const w of workers) {
      const lease = await t.request({ method: 'POST', url: '/api/work/checkouts', headers: w.auth, body: { project_uuid: r.projectUuid } });
      await t.request({ method: 'POST', url: `/api/work/checkouts/${lease.body.data.checkout_id}/submit`, headers: w.auth, body: { annotations: [BOX], image_width: 640, image_height: 480 } });
    }
    const lease = await t.request({ method: 'POST', url: '/api/work/checkouts', headers: workers[0].auth, body: { project_uuid: r.projectUuid } });
    await t.request({ method: 'POST', url: `/api/work/checkouts/${lease.body.data.checkout_id}/submit`, headers: workers[0].auth, body: { annotations: [], image_width: 640, image_height: 480 } });
    await t.request({ method: 'POST', url: '/api/work/checkouts', headers: workers[1].auth, body: { project_uuid: r.projectUuid } });
  });
  afterAll(async () => {
    await t.close();
  });
  const get = (url: string, who: SignedIn = r) => t.request({ method: 'GET', url, headers: who.auth });

  it('reports progress, money paid and committed, and a daily series', async () => {
    const res = await get(`/api/console/projects/${r.projectUuid}/progress`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      tasks: { total: 4, complete: 1, outstanding: 3, cancelled: 0 },
      submissions: 3,
      paid_cents: 10 + 10 + 20,
      // task 1: 1 missing x 20; task 2: 2 x 30; task 3: 2 x 40.
      committed_cents: 20 + 60 + 80,
    });
    expect(res.body.data.daily).toHaveLength(30);
    expect(res.body.data.daily.at(-1)).toMatchObject({ created: 4, completed: 1 });
  });

  it('lists tasks newest first, filtered and paged by cursor', async () => {
    const all = await get(`/api/console/projects/${r.projectUuid}/tasks?limit=3`);
    expect(all.status).toBe(200);
    expect(all.body.data.map((x: { task_uuid: string }) => x.task_uuid)).toEqual([tasks[3], tasks[2], tasks[1]]);
    expect(all.body.data[2]).toMatchObject({ state: 'incomplete', submission_count: 1, active_checkouts: 1, reward: 20 });
    const next = await get(`/api/console/projects/${r.projectUuid}/tasks?limit=3&before=${encodeURIComponent(all.body.next_cursor)}`);
    expect(next.body.data.map((x: { task_uuid: string }) => x.task_uuid)).toEqual([tasks[0]]);
    expect(next.body.next_cursor).toBeNull();
    const complete = await get(`/api/console/projects/${r.projectUuid}/tasks?state=complete`);
    expect(complete.body.data.map((x: { task_uuid: string }) => x.task_uuid)).toEqual([tasks[0]]);
    expect((await get(`/api/console/projects/${r.projectUuid}/tasks?state=done`)).status).toBe(422);
    expect((await get(`/api/console/projects/${r.projectUuid}/tasks?before=nope`)).status).toBe(422);
    // A time JavaScript reads but PostgreSQL does not: a 422, not a 500.
    expect((await get(`/api/console/projects/${r.projectUuid}/tasks?before=${encodeURIComponent(`1|${tasks[0]}`)}`)).status).toBe(422);
  });

  it('keeps the tasks one worker submitted to, named by their pseudonym, with the other filters and the cursor', async () => {
    const ids = (res: { body: { data: Array<{ task_uuid: string }> } }) => res.body.data.map((x) => x.task_uuid);
    const url = (query: string) => `/api/console/projects/${r.projectUuid}/tasks?${query}`;
    const [w0, w1] = workers.map((w) => workerPseudonym(r.projectUuid, w.userId));
    const first = await get(url(`worker=${w0}&limit=1`));
    expect([first.status, ids(first)]).toEqual([200, [tasks[1]]]);
    const second = await get(url(`worker=${w0}&limit=1&before=${encodeURIComponent(first.body.next_cursor)}`));
    expect([ids(second), second.body.next_cursor]).toEqual([[tasks[0]], null]);
    // w1 holds a lease on task 1 but submitted only to task 0.
    expect(ids(await get(url(`worker=${w1.toUpperCase()}`)))).toEqual([tasks[0]]);
    expect(ids(await get(url(`worker=${w0}&state=incomplete`)))).toEqual([tasks[1]]);
    // A worker of another project's results, or of none: nobody's tasks here.
    expect(await get(url(`worker=${workerPseudonym(randomUUID(), workers[0].userId)}`))).toMatchObject({ status: 200, body: { data: [], next_cursor: null } });
    for (const worker of ['worker_123', 'someone', '']) {
      expect(await get(url(`worker=${encodeURIComponent(worker)}`))).toMatchObject({
        status: 422,
        body: { errors: [{ field: 'worker', detail: 'must be a worker of the results, such as worker_3fa9c2d1e0b4' }] },
      });
    }
  });

  it('pages with the cursor every list uses (libs/contracts paging.ts), and refuses any other in the contract’s shape', async () => {
    const first = await get(`/api/console/projects/${r.projectUuid}/tasks?limit=1`);
    // The moment to the microsecond, in UTC, as the worker's history writes it.
    expect(first.body.next_cursor).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z\|[0-9a-f-]{36}$/);
    const [{ at }] = await t.db.query(`SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at FROM tasks WHERE id = $1`, [tasks[3]]);
    expect(first.body.next_cursor).toBe(`${at}|${tasks[3]}`);
    for (const before of refusedCursors(tasks[3])) {
      const res = await get(`/api/console/projects/${r.projectUuid}/tasks?before=${encodeURIComponent(before)}`);
      expect({ before, status: res.status, body: res.body }).toEqual({ before, status: 422, body: CURSOR_ERROR });
    }
    const twice = await get(`/api/console/projects/${r.projectUuid}/tasks?before=${encodeURIComponent(first.body.next_cursor)}&before=x`);
    expect(twice).toMatchObject({ status: 422, body: CURSOR_ERROR });
    for (const limit of REFUSED_LIMITS) {
      const res = await get(`/api/console/projects/${r.projectUuid}/tasks?limit=${encodeURIComponent(limit)}`);
      expect({ limit, status: res.status, body: res.body }).toEqual({ limit, status: 422, body: LIMIT_ERROR });
    }
    expect(await get(`/api/console/projects/${r.projectUuid}/tasks?state=done`)).toMatchObject({
      status: 422,
      body: { errors: [{ field: 'state', detail: 'must be incomplete, complete or cancelled' }] },
    });
  });

  it('shows one task with consensus boxes and each worker’s own boxes', async () => {
    const res = await get(`/api/console/projects/${r.projectUuid}/tasks/${tasks[0]}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ task_uuid: tasks[0], state: 'complete', external_image_url: 'https://images.example.com/0.jpg' });
    expect(res.body.data.labels.map((l: { name: string }) => l.name)).toEqual(['car', 'person']);
    expect(res.body.data.results.annotations).toEqual([{ ...BOX, support: 2, agreement: 1 }]);
    expect(res.body.data.results.submissions).toHaveLength(2);
    expect(res.body.data.frame).toEqual({ width: 640, height: 480 });
    // A task nobody has submitted yet has no frame.
    const open = await get(`/api/console/projects/${r.projectUuid}/tasks/${tasks[2]}`);
    expect(open.body.data).toMatchObject({ submission_count: 0, frame: null });
  });

  it('downloads the results as JSON and COCO', async () => {
    const json = await get(`/api/console/projects/${r.projectUuid}/results`);
    expect(json.status).toBe(200);
    expect(String(json.headers['content-disposition'])).toMatch(/attachment; filename="crowdbox-.*\.json"/);
    expect(json.body.data).toHaveLength(1);
    const coco = await get(`/api/console/projects/${r.projectUuid}/results?format=coco`);
    expect(Object.keys(coco.body)).toEqual(['info', 'licenses', 'images', 'annotations', 'categories']);
  });

  it('refuses a results download another site starts (a link or a navigation from its page)', async () => {
    const url = `/api/console/projects/${r.projectUuid}/results`;
    for (const site of ['cross-site', 'same-site']) {
      const res = await t.request({ method: 'GET', url, headers: { ...r.auth, 'sec-fetch-site': site } });
      expect(res).toMatchObject({ status: 403, body: { errors: [{ field: 'root', detail: expect.stringMatching(/^requests from other sites are refused/) }] } });
    }
    for (const site of ['same-origin', 'none']) expect((await t.request({ method: 'GET', url, headers: { ...r.auth, 'sec-fetch-site': site } })).status).toBe(200);
    // The project's other reads are not downloads and stay open, as every read of the cookie's routes.
    expect((await t.request({ method: 'GET', url: `/api/console/projects/${r.projectUuid}/progress`, headers: { ...r.auth, 'sec-fetch-site': 'cross-site' } })).status).toBe(200);
  });

  it('is not found for another account', async () => {
    const stranger = await signUp(t);
    for (const path of ['progress', 'tasks', `tasks/${tasks[0]}`, 'results']) {
      expect((await get(`/api/console/projects/${r.projectUuid}/${path}`, stranger)).status).toBe(404);
    }
  });
  it('reads each state’s page through an index of that state’s tasks, not by walking the project', async () => {
    const owner = await aRequester(t, { default_required_submissions: 1 });
    const cancelled = await aTask(t, owner);
    const complete = await aTask(t, owner);
    expect((await t.request({ method: 'POST', url: `/api/console/projects/${owner.projectUuid}/tasks/${cancelled}/cancel`, headers: owner.auth })).status).toBe(200);
    const w = await signUp(t);
    const lease = await checkOut(t, w, owner.projectUuid);
    expect(lease.task_uuid).toBe(complete);
    expect((await submitABox(t, w, lease.checkout_id)).status).toBe(201);
    // 5,000 newer outstanding tasks, which a page of the older states once walked before finding one,
    // and 5,000 older complete ones, which a page of complete tasks read and sorted in full.
    await t.db.query(
      `INSERT INTO tasks (id, project_id, prompt, reward, required_submissions, allowed_completion_time_seconds, created_at)
       SELECT gen_random_uuid(), $1, 'p', 1, 1, 600, now() + n * interval '1 millisecond' FROM generate_series(1, 5000) n`,
      [owner.projectUuid],
    );
    await t.db.query(
      `INSERT INTO tasks (id, project_id, prompt, reward, required_submissions, submission_count, allowed_completion_time_seconds, created_at, completed_at)
       SELECT gen_random_uuid(), $1, 'p', 1, 1, 1, 600, now() - interval '1 day' + n * interval '1 millisecond', now() - interval '1 hour' FROM generate_series(1, 5000) n`,
      [owner.projectUuid],
    );
    await t.db.query('ANALYZE tasks');
    const reads = async (state: 'cancelled' | 'complete' | 'incomplete') => ({ state, reads: await tableReads(t.db, taskListSql({ state }, 51), [owner.projectUuid], 'tasks') });
    expect(await reads('cancelled')).toEqual({ state: 'cancelled', reads: ['ix_tasks_cancelled'] });
    expect(await reads('complete')).toEqual({ state: 'complete', reads: ['ix_tasks_complete'] });
    expect(await reads('incomplete')).toEqual({ state: 'incomplete', reads: ['ix_tasks_open'] });
    const listed = async (state: string) => (await get(`/api/console/projects/${owner.projectUuid}/tasks?state=${state}`, owner)).body.data.map((row: { task_uuid: string }) => row.task_uuid);
    expect(await listed('cancelled')).toEqual([cancelled]);
    expect((await listed('complete'))[0]).toBe(complete);
  });
});

describe('the progress daily series on a database whose TimeZone is not UTC', () => {
  let t: TestApp;
  let database: string;
  beforeAll(async () => {
    database = await createTestDatabase();
    // UTC-12: read in it, a UTC day's midnight is noon UTC, half a day off.
    await adminQuery(`ALTER DATABASE ${database} SET timezone = 'Etc/GMT+12'`);
    t = await startTestApp({}, { database });
  });
  afterAll(async () => {
    await t.close();
    await dropTestDatabase(database);
  });

  it('counts a task in the UTC day it was created and completed, as the days are labelled', async () => {
    const r = await aRequester(t);
    const worker = await signUp(t);
    const task = await aCompletedTask(t, r, worker);
    // Both just after today's UTC midnight: the last day of the series.
    await t.db.query(
      `UPDATE tasks SET created_at = date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' + interval '1 second',
                        completed_at = date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' + interval '2 seconds'
        WHERE id = $1`,
      [task],
    );
    const res = await t.request({ method: 'GET', url: `/api/console/projects/${r.projectUuid}/progress`, headers: r.auth });
    expect(res.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(res.body.data.daily.at(-1)).toEqual(expect.objectContaining({ day: today, created: 1, completed: 1 }));
    expect(res.body.data.daily.at(-2)).toEqual(expect.objectContaining({ created: 0, completed: 0 }));
  });
});

async function adminQuery(sql: string): Promise<void> {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
