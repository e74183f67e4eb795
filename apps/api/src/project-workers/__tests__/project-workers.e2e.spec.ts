import { WORKER_STATS_TASKS } from '@crowdbox/contracts';
import { submitInDb } from '../../../test/work-fixtures';
import { MAX_COMPARED_WEIGHT } from '../../submissions/task-results';
import { AGREEMENT_PAIR_BUDGET } from '../project-workers.service';
import { A_BOX, aCompletedTask, aRequester, aTask, checkOut, signUp, submitABox, type Requester, type SignedIn } from '../../../test/factories';
import { startTestApp, type TestApp } from '../../../test/test-app';

/** GET /api/console/projects/:uuid/workers (docs/decisions.md, "Worker agreement"). */
describe("a project's workers and their agreement", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const FAR_BOX = { ...A_BOX, center_x: 500, center_y: 400 };
  /** 500 boxes (the most a submission holds), in a grid on the 640x480 image. */
  const GRID = Array.from({ length: 500 }, (_, i) => ({ label: 'car', center_x: 12 + (i % 25) * 25, center_y: 12 + Math.floor(i / 25) * 24, width: 20, height: 20 }));
  const workersOf = (r: SignedIn, projectUuid: string) => t.request({ method: 'GET', url: `/api/console/projects/${projectUuid}/workers`, headers: r.auth });
  /** The pseudonyms the requester's results show for a task, by submission order. */
  const pseudonyms = async (r: Requester, taskUuid: string): Promise<string[]> =>
    (await t.request({ method: 'GET', url: `/api/v1/tasks/${taskUuid}/annotations?view=submissions`, headers: { apikey: r.liveKey } })).body.data.submissions.map(
      (s: { worker: string }) => s.worker,
    );

  /** A task of three submissions: two careful workers draw A_BOX, the careless one a box far from it. */
  async function aTaskOfThree(r: Requester, [careful1, careful2, careless]: SignedIn[]): Promise<string> {
    const taskUuid = await aTask(t, r, { required_submissions: 3 });
    for (const [worker, box] of [[careful1, A_BOX], [careful2, A_BOX], [careless, FAR_BOX]] as const) {
      const lease = await checkOut(t, worker, r.projectUuid);
      expect(lease.task_uuid).toBe(taskUuid);
      expect((await submitABox(t, worker, lease.checkout_id, { annotations: [box] })).status).toBe(201);
    }
    return taskUuid;
  }

  it('compares each worker with the others of the same tasks, lowest agreement first, and marks the blocked', async () => {
    const r = await aRequester(t);
    const workers = [await signUp(t), await signUp(t), await signUp(t)];
    await aTaskOfThree(r, workers);
    const taskUuid = await aTaskOfThree(r, workers);
    const [careful1, careful2, careless] = await pseudonyms(r, taskUuid);
    // A task of one submission: nothing to compare it with.
    const alone = await signUp(t);
    const [aloneName] = await pseudonyms(r, await aCompletedTask(t, r, alone));
    // An outstanding task's submission is not read.
    await aTask(t, r, { required_submissions: 3 });
    const lease = await checkOut(t, workers[0], r.projectUuid);
    expect((await submitABox(t, workers[0], lease.checkout_id)).status).toBe(201);

    const blocked = await t.request({ method: 'POST', url: `/api/console/projects/${r.projectUuid}/workers/${careless}/block`, headers: r.auth });
    const res = await workersOf(r, r.projectUuid);
    expect(res.status).toBe(200);
    const row = (worker: string, figures: object) => ({ worker, submissions: expect.any(Number), last_submitted_at: expect.any(String), block_id: null, ...figures });
    // The careless worker's box matches nothing of the others' consensus (the careful pair's box). Each
    // careful worker's peers are the other careful one and the careless one: two workers, so both their
    // boxes stand, and one of the two matches.
    expect(res.body.data).toEqual({
      tasks_read: 3,
      workers: [
        row(careless, { submissions: 2, compared_tasks: 2, boxes: 2, peer_boxes: 2, matched: 0, agreement: 0, precision: 0, recall: 0, block_id: blocked.body.data.id }),
        // A tie: by name.
        ...[careful1, careful2].sort().map((name) => row(name, { submissions: 2, compared_tasks: 2, boxes: 2, peer_boxes: 4, matched: 2, agreement: 0.667, precision: 1, recall: 0.5 })),
        row(aloneName, { submissions: 1, compared_tasks: 0, boxes: 0, peer_boxes: 0, matched: 0, agreement: null, precision: null, recall: null }),
      ],
    });
    // The task page gives the same figures for one task.
    const detail = await t.request({ method: 'GET', url: `/api/console/projects/${r.projectUuid}/tasks/${taskUuid}`, headers: r.auth });
    expect(detail.body.data.peer_agreement).toEqual([
      { worker: careful1, boxes: 1, peer_boxes: 2, matched: 1 },
      { worker: careful2, boxes: 1, peer_boxes: 2, matched: 1 },
      { worker: careless, boxes: 1, peer_boxes: 1, matched: 0 },
    ]);
    const single = await t.request({ method: 'GET', url: `/api/console/projects/${r.projectUuid}/tasks/${(await t.db.query('SELECT task_id FROM submissions WHERE worker_id = $1', [alone.userId]))[0].task_id}`, headers: r.auth });
    expect(single.body.data.peer_agreement).toEqual([]);
    // The careful worker's last submission is the outstanding task's, which the figures leave out.
    const [{ submitted_at: lastRead }] = (await t.request({ method: 'GET', url: `/api/v1/tasks/${taskUuid}/annotations?view=submissions`, headers: { apikey: r.liveKey } })).body.data.submissions;
    expect(res.body.data.workers.find((w: { worker: string }) => w.worker === careful1).last_submitted_at).toBe(lastRead);
  });

  it('agree, at 1, when they drew nothing on the same images', async () => {
    const r = await aRequester(t);
    const [a, b] = [await signUp(t), await signUp(t)];
    const taskUuid = await aTask(t, r, { required_submissions: 2 });
    for (const worker of [a, b]) {
      const lease = await checkOut(t, worker, r.projectUuid);
      expect(lease.task_uuid).toBe(taskUuid);
      expect((await submitABox(t, worker, lease.checkout_id, { annotations: [] })).status).toBe(201);
    }
    const { workers } = (await workersOf(r, r.projectUuid)).body.data;
    expect(workers.map((w: { agreement: number; precision: null; recall: null }) => [w.agreement, w.precision, w.recall])).toEqual([
      [1, null, null],
      [1, null, null],
    ]);
  });

  it(`reads the latest ${WORKER_STATS_TASKS} completed tasks only`, async () => {
    const r = await aRequester(t);
    await aTaskOfThree(r, [await signUp(t), await signUp(t), await signUp(t)]);
    // Completed tasks without submissions, completed after that one: the newest WORKER_STATS_TASKS leave it out.
    await t.db.query(
      `INSERT INTO tasks
       SELECT (jsonb_populate_record(t, jsonb_build_object('id', gen_random_uuid(), 'completed_at', now() + g * interval '1 second'))).*
         FROM tasks t, generate_series(1, $2) g WHERE t.project_id = $1`,
      [r.projectUuid, WORKER_STATS_TASKS],
    );
    expect((await workersOf(r, r.projectUuid)).body.data).toEqual({ tasks_read: WORKER_STATS_TASKS, workers: [] });
  });

  it('reads every task across its pages, tasks completed within one millisecond too', async () => {
    const r = await aRequester(t);
    await aTaskOfThree(r, [await signUp(t), await signUp(t), await signUp(t)]);
    // 150 more, a microsecond apart in one millisecond: more than a page, and a page's last task holds a
    // moment JavaScript's milliseconds cannot say.
    await t.db.query(
      `INSERT INTO tasks
       SELECT (jsonb_populate_record(t, jsonb_build_object('id', gen_random_uuid(),
                 'completed_at', date_trunc('milliseconds', now()) + interval '1 hour' + g * interval '1 microsecond'))).*
         FROM tasks t, generate_series(1, 150) g WHERE t.project_id = $1`,
      [r.projectUuid],
    );
    const { tasks_read, workers } = (await workersOf(r, r.projectUuid)).body.data;
    expect({ tasks_read, workers: workers.length }).toEqual({ tasks_read: 151, workers: 3 });
  });

  it('stops before a task that would take the comparisons past their budget, but reads the newest', async () => {
    const r = await aRequester(t);
    const taskOf = async (workers: number, completedAt: string) => {
      const taskId = await aTask(t, r, { required_submissions: workers });
      for (let i = 0; i < workers; i++) await submitInDb(t.db, { taskId, workerId: (await signUp(t)).userId, boxes: GRID, submittedAt: completedAt });
    };
    // Two workers of 500 boxes weigh 2 x 500 x 500 pairs, three 3 x 500 x 1,000: over the budget together, and the newer alone.
    expect(2 * 500 * 500).toBeLessThan(AGREEMENT_PAIR_BUDGET);
    expect(3 * 500 * 1000).toBeGreaterThan(AGREEMENT_PAIR_BUDGET);
    await taskOf(2, new Date(Date.now() - 60_000).toISOString());
    await taskOf(3, new Date().toISOString());
    const { tasks_read, workers } = (await workersOf(r, r.projectUuid)).body.data;
    expect({ tasks_read, workers: workers.length, agreement: workers[0].agreement }).toEqual({ tasks_read: 1, workers: 3, agreement: 1 });
  });

  it('compares no worker of a task heavier than the most compared on request, on the task page or here', async () => {
    const r = await aRequester(t);
    // Five workers of 500 boxes weigh 5 x 500 x 2,000 pairs.
    expect(5 * 500 * 2000).toBeGreaterThan(MAX_COMPARED_WEIGHT);
    const taskId = await aTask(t, r, { required_submissions: 5 });
    for (let i = 0; i < 5; i++) await submitInDb(t.db, { taskId, workerId: (await signUp(t)).userId, boxes: GRID });
    const detail = await t.request({ method: 'GET', url: `/api/console/projects/${r.projectUuid}/tasks/${taskId}`, headers: r.auth });
    expect(detail.body.data.peer_agreement).toEqual([]);
    const { tasks_read, workers } = (await workersOf(r, r.projectUuid)).body.data;
    expect({ tasks_read, compared: workers.map((w: { compared_tasks: number; agreement: null }) => [w.compared_tasks, w.agreement]) }).toEqual({
      tasks_read: 1,
      compared: Array(5).fill([0, null]),
    });
  });

  it("answers another account's project, or a missing one, 404", async () => {
    const r = await aRequester(t);
    const stranger = await signUp(t);
    for (const [who, uuid] of [[stranger, r.projectUuid], [r, '7d3f5a0e-0000-4000-8000-000000000000']] as const) {
      const res = await workersOf(who, uuid);
      expect([res.status, res.body]).toEqual([404, { errors: [{ field: 'root', detail: 'project not found' }] }]);
    }
  });
});
