import { randomUUID } from 'node:crypto';
import { aRequester, aTask, checkOut, signUp, submitABox, type Requester, type SignedIn } from '../../../test/factories';
import { tableReads, tableScans } from '../../../test/query-plan';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { asFixture } from '../../../test/work-fixtures';
import type { SessionPrincipal } from '../../common/http/principal';
import { WORKER_PART_SQL, WorkSummaryService, type ProjectsSnapshot } from '../work-summary.service';

/**
 * GET /api/work/projects from one shared snapshot of every listable project per process, less each
 * worker's own part (docs/decisions.md, "The work list is one shared snapshot, less each worker's own part").
 */
describe('the work list is one shared snapshot less each worker’s own part', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const principal = (w: SignedIn): SessionPrincipal => ({ userId: w.userId, accountId: w.accountId, email: w.email, name: 'Worker', sessionId: randomUUID() });
  const listed = async (w: SignedIn, r: Requester) => {
    const res = await t.request({ method: 'GET', url: '/api/work/projects', headers: w.auth });
    expect(res.status).toBe(200);
    return (res.body.data as Array<{ uuid: string; reward: number; min_reward: number; available_task_count: number; allowed_completion_time_seconds: number }>).find(
      (p) => p.uuid === r.projectUuid,
    );
  };
  const release = async (w: SignedIn, checkoutId: string) =>
    expect((await t.request({ method: 'POST', url: `/api/work/checkouts/${checkoutId}/release`, headers: w.auth })).status).toBe(200);

  it('answers many workers’ first lists from one aggregate over the open tasks, not one each', async () => {
    const r = await aRequester(t);
    await aTask(t, r, { required_submissions: 1 });
    const lists = t.app.get(WorkSummaryService);
    // Workers who never listed before, at once: before the snapshot each ran the whole aggregate.
    const crowd: SessionPrincipal[] = Array.from({ length: 20 }, (_, i) => ({
      userId: randomUUID(),
      accountId: randomUUID(),
      email: `crowd${i}@example.com`,
      name: 'Worker',
      sessionId: randomUUID(),
    }));
    const statements = jest.spyOn(t.db, 'query');
    try {
      const answers = await Promise.all(crowd.map((w) => lists.projects(w)));
      for (const answer of answers) expect(answer.find((p) => p.uuid === r.projectUuid)?.available_task_count).toBe(1);
      // Any statement that reads every open task of every project (the old per-worker one did too).
      const overAllOpenTasks = statements.mock.calls.filter(([sql]) => {
        const text = String(sql);
        return text.includes('FROM tasks t JOIN projects p ON p.id = t.project_id') && !text.includes('ANY(');
      });
      expect(overAllOpenTasks).toHaveLength(1);
      // Each worker's own part is theirs.
      expect(statements.mock.calls.filter(([sql]) => sql === WORKER_PART_SQL)).toHaveLength(20);
    } finally {
      statements.mockRestore();
    }
  });

  it('leaves out the worker’s own account, accounts that blocked them, and projects whose tasks they all leased; counts the rest', async () => {
    const mineToo = await aRequester(t);
    const blocker = await aRequester(t);
    const used = await aRequester(t);
    const open = await aRequester(t);
    for (const r of [blocker, used]) await aTask(t, r, { required_submissions: 2 });
    await aTask(t, used, { required_submissions: 2 });
    for (let i = 0; i < 3; i++) await aTask(t, open, { required_submissions: 2 });
    await aTask(t, mineToo, { required_submissions: 2 });
    const [w, other] = await Promise.all([signUp(t), signUp(t)]);
    // The worker is mineToo's own user: their account's project is not offered to them.
    expect(await listed(mineToo, mineToo)).toBeUndefined();
    expect(await listed(mineToo, open)).toMatchObject({ available_task_count: 3 });
    await t.db.query('INSERT INTO worker_blocks (id, account_id, worker_id, project_id) VALUES ($1, $2, $3, $4)', [
      randomUUID(),
      blocker.accountId,
      w.userId,
      blocker.projectUuid,
    ]);
    // Both of `used`'s tasks: one submitted, one released. Each keeps a free slot for others.
    const first = await checkOut(t, w, used.projectUuid);
    expect((await submitABox(t, w, first.checkout_id)).status).toBe(201);
    const second = await checkOut(t, w, used.projectUuid);
    await release(w, second.checkout_id);
    // One of `open`'s three, held.
    await checkOut(t, w, open.projectUuid);

    expect(await listed(w, blocker)).toBeUndefined();
    expect(await listed(w, used)).toBeUndefined();
    expect(await listed(w, open)).toMatchObject({ available_task_count: 2 });
    expect(await listed(other, blocker)).toMatchObject({ available_task_count: 1 });
    expect(await listed(other, used)).toMatchObject({ available_task_count: 2 });
    expect(await listed(other, open)).toMatchObject({ available_task_count: 3 });
  });

  it('keeps the reward range and the time of the tasks left to this worker exact', async () => {
    // Oldest first, so each checkout takes the best paid task left; one more value than the snapshot keeps.
    const r = await aRequester(t);
    const rewards = [90, 80, 70, 60, 50, 40, 30, 20, 10];
    for (const reward of rewards) await aTask(t, r, { required_submissions: 2, reward, allowed_completion_time_seconds: 60 + reward });
    const [w, other] = await Promise.all([signUp(t), signUp(t)]);
    const lease = await checkOut(t, w, r.projectUuid);
    expect(await listed(w, r)).toMatchObject({ reward: 80, min_reward: 10, allowed_completion_time_seconds: 70, available_task_count: 8 });
    expect(await listed(other, r)).toMatchObject({ reward: 90, min_reward: 10, available_task_count: 9 });
    await release(w, lease.checkout_id);
    // Every task of the eight highest rewards: what is left is one the snapshot's buckets do not name.
    for (let i = 1; i < 8; i++) await release(w, (await checkOut(t, w, r.projectUuid)).checkout_id);
    expect(await listed(w, r)).toEqual({
      uuid: r.projectUuid,
      display_name: expect.any(String),
      display_short_description: expect.any(String),
      reward: 10,
      min_reward: 10,
      allowed_completion_time_seconds: 70,
      available_task_count: 1,
    });
    expect(await listed(other, r)).toMatchObject({ reward: 90, min_reward: 10, allowed_completion_time_seconds: 70, available_task_count: 9 });
  });

  it('takes off what the worker did since the snapshot once, whether the snapshot saw it or not', async () => {
    const r = await aRequester(t);
    for (let i = 0; i < 3; i++) await aTask(t, r, { required_submissions: 1 });
    const w = await signUp(t);
    const lists = t.app.get(WorkSummaryService);
    const internals = lists as unknown as { currentSnapshot(): Promise<ProjectsSnapshot> };
    const before = await internals.currentSnapshot();
    const lease = await checkOut(t, w, r.projectUuid);
    await release(w, lease.checkout_id);
    const next = await checkOut(t, w, r.projectUuid);
    expect((await submitABox(t, w, next.checkout_id)).status).toBe(201);
    const after = await internals.currentSnapshot();
    expect(after).not.toBe(before);
    // Two of the three touched (one released, one submitted, completing it): one left, from either snapshot.
    const from = async (snapshot: ProjectsSnapshot) => {
      const pinned = jest.spyOn(internals, 'currentSnapshot').mockResolvedValue(snapshot);
      try {
        lists.forgetProjects(principal(w));
        return (await lists.projects(principal(w))).find((p) => p.uuid === r.projectUuid)?.available_task_count;
      } finally {
        pinned.mockRestore();
      }
    };
    expect(await from(before)).toBe(1);
    expect(await from(after)).toBe(1);
  });

  it('reads the worker’s own part through their own rows, not the open tasks nor everyone’s leases', async () => {
    const r = await aRequester(t);
    const taskId = await aTask(t, r, { required_submissions: 1 });
    // 5,000 more open tasks in the project, older, each once leased and given back by another worker: a
    // walk of the open tasks or of the checkouts would be the plan's to pick if the worker's rows did not lead.
    await t.db.query(
      `INSERT INTO tasks SELECT (jsonb_populate_record(tk, jsonb_build_object('id', gen_random_uuid(), 'created_at', now() - interval '1 day'))).*
         FROM tasks tk, generate_series(1, 5000) WHERE tk.id = $1`,
      [taskId],
    );
    const [w, other] = await Promise.all([signUp(t), signUp(t)]);
    // Released rows hold no slot and change no lease hint, so the triggers that refuse them are skipped.
    await asFixture(t.db, (tx) =>
      tx.query(
        `INSERT INTO checkouts (id, task_id, worker_id, expires_at, state, ended_at)
         SELECT gen_random_uuid(), id, $2, now() + interval '1 hour', 'released', now() FROM tasks WHERE project_id = $1`,
        [r.projectUuid, other.userId],
      ),
    );
    await checkOut(t, w, r.projectUuid);
    for (const table of ['tasks', 'checkouts', 'projects', 'worker_blocks']) await t.db.query(`ANALYZE ${table}`);
    const [{ now }] = await t.db.query('SELECT now()::text AS now');
    const params = [w.userId, now];
    // Only by primary key: one task row per checkout of theirs, never a scan of the open tasks.
    expect(new Set(await tableReads(t.db, WORKER_PART_SQL, params, 'tasks'))).toEqual(new Set(['pk_tasks']));
    expect(await tableScans(t.db, WORKER_PART_SQL, params, 'tasks')).toBe(1);
    // Their own checkouts by worker, and that one task's checkouts by task: two index reads, once each.
    expect(await tableReads(t.db, WORKER_PART_SQL, params, 'checkouts')).not.toContain('Seq Scan');
    expect(await tableScans(t.db, WORKER_PART_SQL, params, 'checkouts')).toBe(2);
  });
});
