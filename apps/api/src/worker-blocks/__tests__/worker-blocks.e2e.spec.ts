import { MAX_BLOCKED_WORKERS } from '@crowdbox/contracts';
import { randomUUID } from 'node:crypto';
import { aCompletedTask, aRequester, aTask, checkOut, createProject, signUp, submitABox, type Requester, type SignedIn } from '../../../test/factories';
import { eventually } from '../../../test/eventually';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { leaseInDb } from '../../../test/work-fixtures';
import { pgPool } from '../../database/prepared-statement';

/** Requesters blocking workers (docs/decisions.md, "Blocking a worker"). */
describe('blocking a worker', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  /** The worker's pseudonym in the requester's results for a task they submitted. */
  const pseudonymOf = async (r: Requester, taskUuid: string): Promise<string> => {
    const res = await t.request({ method: 'GET', url: `/api/v1/tasks/${taskUuid}/annotations?view=submissions`, headers: { apikey: r.liveKey } });
    expect(res.status).toBe(200);
    return res.body.data.submissions[0].worker;
  };
  const block = (r: SignedIn, projectUuid: string, worker: string) =>
    t.request({ method: 'POST', url: `/api/console/projects/${projectUuid}/workers/${worker}/block`, headers: r.auth });
  const blocks = async (r: SignedIn) => (await t.request({ method: 'GET', url: '/api/console/blocked_workers', headers: r.auth })).body.data;
  const unblock = (r: SignedIn, id: string) => t.request({ method: 'DELETE', url: `/api/console/blocked_workers/${id}`, headers: r.auth });
  const tryCheckOut = (w: SignedIn, projectUuid: string) =>
    t.request({ method: 'POST', url: '/api/work/checkouts', headers: w.auth, body: { project_uuid: projectUuid } });
  const listedProjects = async (w: SignedIn): Promise<string[]> =>
    (await t.request({ method: 'GET', url: '/api/work/projects', headers: w.auth })).body.data.map((p: { uuid: string }) => p.uuid);
  const leaseState = async (id: string) => (await t.db.query('SELECT state FROM checkouts WHERE id = $1', [id]))[0].state;

  /** A requester with a task the worker completed, and the worker's pseudonym in its results. */
  const aRequesterWithWorker = async (worker: SignedIn) => {
    const r = await aRequester(t);
    const taskUuid = await aCompletedTask(t, r, worker);
    return { r, taskUuid, pseudonym: await pseudonymOf(r, taskUuid) };
  };

  it("takes none of the account's tasks, in any of its projects, and leaves other accounts' and workers' as they were", async () => {
    const w = await signUp(t);
    const other = await signUp(t);
    const { r, taskUuid, pseudonym } = await aRequesterWithWorker(w);
    const second = await createProject(t, r, { name: 'second' });
    await aTask(t, r);
    await aTask(t, r, { project_uuid: second.uuid });
    const elsewhere = await aRequester(t);
    await aTask(t, elsewhere);
    await eventually(async () => (await listedProjects(w)).includes(second.uuid));
    const blockedOnTaskPage = async () =>
      (await t.request({ method: 'GET', url: `/api/console/projects/${r.projectUuid}/tasks/${taskUuid}`, headers: r.auth })).body.data.blocked_workers;
    expect(await blockedOnTaskPage()).toEqual([]);

    const res = await block(r, r.projectUuid, pseudonym);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      id: expect.any(String),
      worker: pseudonym,
      project: { uuid: r.projectUuid, display_name: 'Find the cars' },
      blocked_at: expect.any(String),
      created: true,
      ended_checkouts: 0,
    });

    expect(await eventually(async () => !(await listedProjects(w)).some((p) => p === r.projectUuid || p === second.uuid))).toBe(true);
    expect(await listedProjects(w)).toContain(elsewhere.projectUuid);
    for (const projectUuid of [r.projectUuid, second.uuid]) {
      const refused = await tryCheckOut(w, projectUuid);
      expect(refused.status).toBe(404);
      expect(refused.body).toEqual({ errors: [{ field: 'root', detail: 'no task available' }] });
    }
    expect((await tryCheckOut(w, elsewhere.projectUuid)).status).toBe(201);
    expect((await tryCheckOut(other, r.projectUuid)).status).toBe(201);
    // What the worker submitted before stays in the results, where the console's task page says they are blocked.
    expect(await pseudonymOf(r, taskUuid)).toBe(pseudonym);
    expect(await blockedOnTaskPage()).toEqual([pseudonym]);
  });

  it("ends the worker's active leases on the account's tasks, freeing their slots, and no other lease", async () => {
    const w = await signUp(t);
    const { r, pseudonym } = await aRequesterWithWorker(w);
    const second = await createProject(t, r, { name: 'second' });
    await aTask(t, r, { required_submissions: 1 });
    await aTask(t, r, { project_uuid: second.uuid, required_submissions: 1 });
    const elsewhere = await aRequester(t);
    await aTask(t, elsewhere);
    const leases = [await checkOut(t, w, r.projectUuid), await checkOut(t, w, second.uuid)];
    const kept = await checkOut(t, w, elsewhere.projectUuid);

    const res = await block(r, r.projectUuid, pseudonym);
    expect(res.body.data).toMatchObject({ created: true, ended_checkouts: 2 });
    for (const lease of leases) expect(await leaseState(lease.checkout_id)).toBe('cancelled');
    expect(await leaseState(kept.checkout_id)).toBe('active');
    const late = await submitABox(t, w, leases[0].checkout_id);
    expect(late.status).toBe(422);
    // The slot is free again: the task's one submission can come from someone else.
    const next = await checkOut(t, await signUp(t), r.projectUuid);
    expect(next.task_uuid).toBe(leases[0].task_uuid);
  });

  describe('racing a checkout (migration 1767100000000)', () => {
    /** Sessions waiting on an advisory lock: how a test sees that a statement it started waits for the other side. */
    const advisoryWaits = async (): Promise<number> =>
      (await t.db.query(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'advisory'`)).length;
    /** True once a session waits on the block's key (never, without the guard: the checks below then fail too). */
    const aLockWait = () => eventually(async () => (await advisoryWaits()) > 0, 10_000);

    it('waits for a lease whose insert is in flight, and ends it', async () => {
      const w = await signUp(t);
      const { r, pseudonym } = await aRequesterWithWorker(w);
      const taskId = await aTask(t, r);
      const checkout = await pgPool(t.db).connect();
      try {
        // A checkout as LEASE_NEXT_TASK inserts it, its statement begun before the block: not yet committed.
        await checkout.query('BEGIN');
        const leaseId = randomUUID();
        await checkout.query(`INSERT INTO checkouts (id, task_id, worker_id, expires_at) VALUES ($1, $2, $3, now() + interval '10 minutes')`, [leaseId, taskId, w.userId]);
        const blocking = block(r, r.projectUuid, pseudonym);
        expect(await aLockWait()).toBe(true);
        await checkout.query('COMMIT');
        const res = await blocking;
        expect(res.status).toBe(200);
        expect(res.body.data).toMatchObject({ created: true, ended_checkouts: 1 });
        expect(await leaseState(leaseId)).toBe('cancelled');
      } finally {
        checkout.release();
      }
      // Its slot is free at once.
      expect((await checkOut(t, await signUp(t), r.projectUuid)).task_uuid).toBe(taskId);
    });

    it('makes a checkout that starts while the block commits see it: no task, no lease', async () => {
      const w = await signUp(t);
      const { r } = await aRequesterWithWorker(w);
      await aTask(t, r);
      const blocker = await pgPool(t.db).connect();
      try {
        // The block's transaction as WorkerBlocksService.block runs it: the key, then the row; not yet committed.
        await blocker.query('BEGIN');
        await blocker.query('SELECT pg_advisory_xact_lock(worker_block_key($1, $2))', [w.userId, r.accountId]);
        await blocker.query(`INSERT INTO worker_blocks (id, account_id, worker_id, project_id) VALUES ($1, $2, $3, $4)`, [randomUUID(), r.accountId, w.userId, r.projectUuid]);
        const checkingOut = tryCheckOut(w, r.projectUuid);
        expect(await aLockWait()).toBe(true);
        await blocker.query('COMMIT');
        const res = await checkingOut;
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ errors: [{ field: 'root', detail: 'no task available' }] });
      } finally {
        blocker.release();
      }
      expect(await t.db.query(`SELECT 1 FROM checkouts WHERE worker_id = $1 AND state = 'active'`, [w.userId])).toEqual([]);
    });
  });

  it('answers a second block as it is, and ends a lease left by a checkout that raced a block made before the guard', async () => {
    const w = await signUp(t);
    const { r, pseudonym } = await aRequesterWithWorker(w);
    const first = (await block(r, r.projectUuid, pseudonym)).body.data;
    const taskUuid = await aTask(t, r);
    const raced = await leaseInDb(t.db, taskUuid, w.userId);

    const again = await block(r, r.projectUuid, pseudonym);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual({ ...first, created: false, ended_checkouts: 1 });
    expect(await leaseState(raced)).toBe('cancelled');
    expect(await blocks(r)).toEqual([{ id: first.id, worker: pseudonym, project: first.project, blocked_at: first.blocked_at }]);
  });

  it('lists the blocks newest first, and an unblock lets the worker take the tasks again', async () => {
    const [w1, w2] = [await signUp(t), await signUp(t)];
    const { r, pseudonym: p1 } = await aRequesterWithWorker(w1);
    const p2 = await pseudonymOf(r, await aCompletedTask(t, r, w2));
    const b1 = (await block(r, r.projectUuid, p1)).body.data;
    const b2 = (await block(r, r.projectUuid, p2)).body.data;
    expect((await blocks(r)).map((b: { id: string }) => b.id)).toEqual([b2.id, b1.id]);
    expect(await blocks(await signUp(t))).toEqual([]);

    await aTask(t, r);
    const res = await unblock(r, b1.id);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: b1.id, worker: p1, project: b1.project, blocked_at: b1.blocked_at });
    expect((await tryCheckOut(w1, r.projectUuid)).status).toBe(201);
    expect((await tryCheckOut(w2, r.projectUuid)).status).toBe(404);
    expect((await blocks(r)).map((b: { id: string }) => b.id)).toEqual([b2.id]);

    const again = await unblock(r, b1.id);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ errors: [{ field: 'root', detail: 'blocked worker not found' }] });
    expect((await unblock(await signUp(t), b2.id)).status).toBe(404);
    expect((await unblock(r, 'not-a-uuid')).status).toBe(404);
    expect(await blocks(r)).toHaveLength(1);
  });

  it('names only a worker who submitted in that project, and changes nothing otherwise', async () => {
    const w = await signUp(t);
    const { r, pseudonym } = await aRequesterWithWorker(w);
    const second = await createProject(t, r, { name: 'second' });
    const count = async () => (await t.db.query('SELECT count(*)::int AS n FROM worker_blocks'))[0].n;
    const before = await count();
    const notFound = { errors: [{ field: 'worker', detail: 'no submission of this project is by that worker' }] };
    // The worker's pseudonym differs per project, and they submitted nothing in the second.
    for (const [project, name] of [[second.uuid, pseudonym], [r.projectUuid, 'worker_000000000000'], [r.projectUuid, 'worker_x'], [r.projectUuid, "worker_'; --"]]) {
      const res = await block(r, project, encodeURIComponent(name));
      expect([res.status, res.body]).toEqual([404, notFound]);
    }
    const stranger = await block(await signUp(t), r.projectUuid, pseudonym);
    expect([stranger.status, stranger.body]).toEqual([404, { errors: [{ field: 'root', detail: 'project not found' }] }]);
    expect(await count()).toBe(before);
    // Upper case in the path names the same project and worker.
    expect((await block(r, r.projectUuid.toUpperCase(), pseudonym.toUpperCase())).body.data.worker).toBe(pseudonym);
  });

  it(`refuses a block beyond ${MAX_BLOCKED_WORKERS} per account, 422 on root, and adds nothing`, async () => {
    const w = await signUp(t);
    const { r, pseudonym } = await aRequesterWithWorker(w);
    await t.db.query(
      `WITH a AS (INSERT INTO accounts (id, name, webhook_signing_secret)
                  SELECT gen_random_uuid(), 'filler', 'whsec_x' FROM generate_series(1, $2) RETURNING id),
            u AS (INSERT INTO users (id, account_id, email, name, password_hash)
                  SELECT gen_random_uuid(), a.id, 'filler-' || a.id || '@example.com', '', '!' FROM a RETURNING id)
       INSERT INTO worker_blocks (id, account_id, worker_id, project_id) SELECT gen_random_uuid(), $1, u.id, $3 FROM u`,
      [r.accountId, MAX_BLOCKED_WORKERS, r.projectUuid],
    );
    const res = await block(r, r.projectUuid, pseudonym);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ errors: [{ field: 'root', detail: `an account may block at most ${MAX_BLOCKED_WORKERS.toLocaleString('en-US')} workers; unblock one first` }] });
    expect(await blocks(r)).toHaveLength(MAX_BLOCKED_WORKERS);
    await aTask(t, r);
    expect((await tryCheckOut(w, r.projectUuid)).status).toBe(201);
  });
});
