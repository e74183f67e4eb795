import { WORK_ERROR } from '@crowdbox/contracts';
import { randomUUID } from 'node:crypto';
import { aCompletedTask, aRequester, aTask, addTask, checkOut, signUp, type Requester, type SignedIn } from '../../../test/factories';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { asFixture } from '../../../test/work-fixtures';
import { ArchivedProjectSweep } from '../../work/archived-project-sweep';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** POST /api/console/projects/:uuid/archive and /unarchive (docs/decisions.md, "Archiving a project"). */
describe('archiving a project', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (who: SignedIn, uuid: string, what: 'archive' | 'unarchive') =>
    t.request({ method: 'POST', url: `/api/console/projects/${uuid}/${what}`, headers: who.auth });
  const get = (who: SignedIn, url: string) => t.request({ method: 'GET', url, headers: who.auth });
  const v1 = (r: Requester, url: string, key = r.liveKey) => t.request({ method: 'GET', url, headers: { apikey: key } });
  const addTasks = (r: Requester, key = r.liveKey) =>
    t.request({ method: 'POST', url: '/api/v1/projects/add_tasks', headers: { apikey: key }, body: { project_uuid: r.projectUuid, tasks: [{ substitutions: { object: 'car' } }, { substitutions: { object: 'bus' } }] } });
  const taskCount = async (r: Requester) => Number((await t.db.query('SELECT count(*) FROM tasks WHERE project_id = $1', [r.projectUuid]))[0].count);
  const projectRow = async (r: Requester) =>
    (await t.db.query('SELECT archived_at, updated_at FROM projects WHERE id = $1', [r.projectUuid]))[0] as { archived_at: Date | null; updated_at: Date };
  const archivedDetail = (uuid: string) => expect.stringMatching(new RegExp(`${uuid} is archived.*unarchive.*/api/console/projects/${uuid}/unarchive`));
  /**
   * A task written straight into `r`'s project, as an insert in flight during its archive, or a process
   * whose copy of the project was stale, would write it after the archive's cancel.
   */
  const lateTask = async (r: Requester) => {
    const id = randomUUID();
    await asFixture(t.db, (tx) =>
      tx.query(
        `INSERT INTO tasks (id, project_id, prompt, substitutions, reward, required_submissions, allowed_completion_time_seconds)
         VALUES ($1, $2, '<p>x</p>', '{}', 1, 1, 600)`,
        [id, r.projectUuid],
      ),
    );
    return id;
  };

  it('sets archived_at and cancels the outstanding tasks in one go; answers the project as the console reads it', async () => {
    const r = await aRequester(t);
    const [w1, w2] = await Promise.all([signUp(t), signUp(t)]);
    const done = await aCompletedTask(t, r, w1);
    const open = await aTask(t, r, { required_submissions: 2, reward: 30 });
    const leased = await checkOut(t, w2, r.projectUuid);
    expect(leased.task_uuid).toBe(open);

    const res = await post(r, r.projectUuid, 'archive');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ...(await get(r, `/api/console/projects/${r.projectUuid}`)).body.data, archived_at: expect.stringMatching(ISO_MS) });
    expect(res.body.data.archived_at).toBe((await projectRow(r)).archived_at?.toISOString());
    const tasks: Array<{ id: string; cancelled: boolean }> = await t.db.query(
      'SELECT id, cancelled_at IS NOT NULL AS cancelled FROM tasks WHERE project_id = $1 ORDER BY created_at',
      [r.projectUuid],
    );
    expect(tasks).toEqual([
      { id: done, cancelled: false },
      { id: open, cancelled: true },
    ]);
    const [lease] = await t.db.query('SELECT state FROM checkouts WHERE id = $1', [leased.checkout_id]);
    expect(lease.state).toBe('cancelled');
  });

  it('is idempotent: archiving an archived project answers the same and changes nothing', async () => {
    const r = await aRequester(t);
    await aTask(t, r);
    const first = await post(r, r.projectUuid, 'archive');
    const before = await projectRow(r);
    const again = await post(r, r.projectUuid, 'archive');
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await projectRow(r)).toEqual(before);
    // A task that slipped in (another process's cached copy of the project): a later archive does not cancel it.
    const straggler = await lateTask(r);
    expect((await post(r, r.projectUuid, 'archive')).body.data.archived_at).toBe(first.body.data.archived_at);
    expect((await t.db.query('SELECT cancelled_at FROM tasks WHERE id = $1', [straggler]))[0].cancelled_at).toBeNull();
  });

  it('takes no new task: add_task, add_tasks and a test key’s dry run answer 422 and write nothing', async () => {
    const r = await aRequester(t);
    await aTask(t, r);
    expect((await post(r, r.projectUuid, 'archive')).status).toBe(200);
    const before = await taskCount(r);
    const refused = { errors: [{ field: 'root', detail: archivedDetail(r.projectUuid) }] };
    for (const key of [r.liveKey, r.testKey]) {
      expect(await addTask(t, key, { project_uuid: r.projectUuid, substitutions: { object: 'car' } })).toMatchObject({ status: 422, body: refused });
      expect(await addTasks(r, key)).toMatchObject({ status: 422, body: refused });
    }
    // With an Idempotency-Key too: nothing stored to replay.
    expect((await addTask(t, r.liveKey, { project_uuid: r.projectUuid, substitutions: { object: 'car' } }, { 'idempotency-key': 'k1' })).status).toBe(422);
    expect(await taskCount(r)).toBe(before);
    expect(Number((await t.db.query('SELECT count(*) FROM idempotency_keys WHERE account_id = $1', [r.accountId]))[0].count)).toBe(0);
  });

  it('replays a keyed add_task and add_tasks made before the archive, with a live and a test key', async () => {
    // A client whose answer was lost retries with the same key: it must learn the tasks were made (API.md
    // §1, the first response), not read a 422 that says none was.
    const r = await aRequester(t);
    const one = { project_uuid: r.projectUuid, substitutions: { object: 'car' } };
    const batch = (key: string, idempotencyKey: string) =>
      t.request({
        method: 'POST',
        url: '/api/v1/projects/add_tasks',
        headers: { apikey: key, 'idempotency-key': idempotencyKey },
        body: { project_uuid: r.projectUuid, tasks: [{ substitutions: { object: 'car' } }, { substitutions: { object: 'bus' } }] },
      });
    const send = async (key: string) => [await addTask(t, key, one, { 'idempotency-key': 'before-1' }), await batch(key, 'before-2')];
    const firsts = [...(await send(r.liveKey)), ...(await send(r.testKey))];
    for (const first of firsts) expect(first.status).toBe(201);
    expect((await post(r, r.projectUuid, 'archive')).status).toBe(200);
    const before = await taskCount(r);

    const agains = [...(await send(r.liveKey)), ...(await send(r.testKey))];
    agains.forEach((again, i) => expect(again).toMatchObject({ status: 201, body: firsts[i].body }));
    expect(await taskCount(r)).toBe(before);
    // The same key with another body is that key's 422, as before the archive; a new key is the archive's.
    const other = await addTask(t, r.liveKey, { ...one, substitutions: { object: 'bus' } }, { 'idempotency-key': 'before-1' });
    expect(other).toMatchObject({ status: 422, body: { errors: [{ field: 'Idempotency-Key' }] } });
    const fresh = await addTask(t, r.liveKey, one, { 'idempotency-key': 'after-1' });
    expect(fresh).toMatchObject({ status: 422, body: { errors: [{ field: 'root', detail: archivedDetail(r.projectUuid) }] } });
  });

  describe('tasks added after the archive began (work/archived-project-sweep.ts)', () => {
    const cancelled = async (id: string) => (await t.db.query('SELECT cancelled_at IS NOT NULL AS c FROM tasks WHERE id = $1', [id]))[0].c as boolean;
    const sweep = () => t.app.get(ArchivedProjectSweep).prune();
    // What the other tests of this file left in their archived projects goes first: the counts below are this test's.
    beforeEach(() => sweep());

    it('are cancelled by the jobs role’s sweep, as the archive cancelled the others; other projects are left alone', async () => {
      const r = await aRequester(t);
      const other = await aRequester(t);
      await aTask(t, r);
      const open = await aTask(t, other);
      expect((await post(r, r.projectUuid, 'archive')).status).toBe(200);
      const late = await lateTask(r);
      expect(await cancelled(late)).toBe(false);

      expect(await sweep()).toBe(1);
      expect(await cancelled(late)).toBe(true);
      expect(await cancelled(open)).toBe(false);
      expect(await sweep()).toBe(0);
    });

    it('leave a project unarchived since, and one archived long ago, alone', async () => {
      const unarchived = await aRequester(t);
      expect((await post(unarchived, unarchived.projectUuid, 'archive')).status).toBe(200);
      expect((await post(unarchived, unarchived.projectUuid, 'unarchive')).status).toBe(200);
      const kept = await aTask(t, unarchived);
      // Archived two hours ago: no insert can still be in flight, nor a copy of it stale; not read at all.
      const old = await aRequester(t);
      expect((await post(old, old.projectUuid, 'archive')).status).toBe(200);
      await t.db.query(`UPDATE projects SET archived_at = now() - interval '2 hours' WHERE id = $1`, [old.projectUuid]);
      const untouched = await lateTask(old);

      expect(await sweep()).toBe(0);
      expect(await cancelled(kept)).toBe(false);
      expect(await cancelled(untouched)).toBe(false);
    });
  });

  it('is offered to no worker, and a checkout is refused as with no task left, even for a task added after the archive', async () => {
    const r = await aRequester(t);
    const w = await signUp(t);
    await aTask(t, r);
    const listed = async () => ((await get(w, '/api/work/projects')).body.data as Array<{ uuid: string }>).map((p) => p.uuid);
    expect(await listed()).toContain(r.projectUuid);
    expect((await post(r, r.projectUuid, 'archive')).status).toBe(200);
    // As another process whose cached copy of the project was not yet archived could add it, before the
    // jobs role's sweep (tested above) cancels it: the reads do not trust the cache either.
    await lateTask(r);
    // The work list is kept up to 2 s per worker: a worker who has not read it yet.
    const fresh = await signUp(t);
    expect(((await get(fresh, '/api/work/projects')).body.data as Array<{ uuid: string }>).map((p) => p.uuid)).not.toContain(r.projectUuid);
    const res = await t.request({ method: 'POST', url: '/api/work/checkouts', headers: w.auth, body: { project_uuid: r.projectUuid } });
    expect(res).toMatchObject({ status: 404, body: { errors: [{ field: 'root', detail: WORK_ERROR.noTaskAvailable }] } });
  });

  it('keeps every read answering: the requester API (with no new field), the console’s tasks and results', async () => {
    const r = await aRequester(t);
    const w = await signUp(t);
    const done = await aCompletedTask(t, r, w);
    const open = await aTask(t, r);
    const reads = async () => ({
      project: (await v1(r, `/api/v1/projects/${r.projectUuid}`)).body,
      done: (await v1(r, `/api/v1/tasks/${done}`)).body,
      annotations: (await v1(r, `/api/v1/tasks/${done}/annotations`)).body,
      all: (await v1(r, `/api/v1/projects/${r.projectUuid}/annotations`)).text,
      coco: (await v1(r, `/api/v1/projects/${r.projectUuid}/annotations?format=coco`)).text.replace(/"date_created":"[^"]*"/, ''),
      results: (await get(r, `/api/console/projects/${r.projectUuid}/results`)).status,
      tasks: (await get(r, `/api/console/projects/${r.projectUuid}/tasks`)).body.data.tasks?.length ?? (await get(r, `/api/console/projects/${r.projectUuid}/tasks`)).status,
    });
    const before = await reads();
    expect((await post(r, r.projectUuid, 'archive')).status).toBe(200);
    const after = await reads();
    expect(after).toEqual({ ...before, project: { data: { ...before.project.data, available_task_count: 0, average_outstanding_task_reward_cents: 0 } } });
    expect(Object.keys(after.project.data)).toEqual(Object.keys(before.project.data));
    expect(Object.keys(after.project.data)).not.toContain('archived_at');
    const cancelled = await v1(r, `/api/v1/tasks/${open}`);
    expect(cancelled.status).toBe(200);
  });

  it('unarchive clears archived_at and the project takes tasks again; the cancelled ones stay cancelled', async () => {
    const r = await aRequester(t);
    const old = await aTask(t, r);
    expect((await post(r, r.projectUuid, 'archive')).status).toBe(200);
    const res = await post(r, r.projectUuid, 'unarchive');
    expect(res.status).toBe(200);
    expect(res.body.data.archived_at).toBeNull();
    expect((await projectRow(r)).archived_at).toBeNull();
    expect((await post(r, r.projectUuid, 'unarchive')).body).toEqual(res.body);
    const fresh = await aTask(t, r);
    const w = await signUp(t);
    expect((await checkOut(t, w, r.projectUuid)).task_uuid).toBe(fresh);
    expect((await t.db.query('SELECT cancelled_at FROM tasks WHERE id = $1', [old]))[0].cancelled_at).not.toBeNull();
  });

  it('answers another account, a missing project and a malformed id with the missing project’s 404, and changes nothing', async () => {
    const r = await aRequester(t);
    const stranger = await aRequester(t);
    const task = await aTask(t, r);
    const notFound = { status: 404, body: { errors: [{ field: 'root', detail: 'project not found' }] } };
    for (const what of ['archive', 'unarchive'] as const) {
      expect(await post(stranger, r.projectUuid, what)).toMatchObject(notFound);
      expect(await post(r, randomUUID(), what)).toMatchObject(notFound);
    }
    expect((await projectRow(r)).archived_at).toBeNull();
    expect((await t.db.query('SELECT cancelled_at FROM tasks WHERE id = $1', [task]))[0].cancelled_at).toBeNull();
  });
});
