import { eventually } from '../../../test/eventually';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { aRequester, aTask, checkOut, signUp, submitABox, type Requester, type SignedIn } from '../../../test/factories';
import { completeInDb, submitInDb } from '../../../test/work-fixtures';
import { pgPool } from '../../database/prepared-statement';
import { CONSENSUS_RULE, storeConsensus } from '../stored-consensus';
import { CAR_1, CAR_2, CAR_3, LONE_PERSON, SHARED_PERSON, STANDARD_AT_05, STANDARD_AT_095, STANDARD_SUBMISSIONS } from '../../../test/consensus-fixtures';

/**
 * The consensus stored on the task by the submission that completes it (migration
 * 1764200000000-stored-consensus), and the answers that read it: used while its threshold is the
 * project's, computed again (and stored) when it is not, or when it is missing.
 */
describe('stored consensus', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const get = (key: string, url: string) => t.request({ method: 'GET', url, headers: { apikey: key } });
  const stored = async (taskId: string): Promise<{ consensus: string | null; threshold: number | null }> =>
    (await t.db.query('SELECT consensus::text AS consensus, consensus_iou_threshold::float8 AS threshold FROM tasks WHERE id = $1', [taskId]))[0];
  const setThreshold = async (r: Requester, threshold: number) => {
    const res = await t.request({ method: 'PATCH', url: `/api/console/projects/${r.projectUuid}`, headers: r.auth, body: { consensus_iou_threshold: threshold } });
    expect(res.status).toBe(200);
  };

  /** Every answer that carries a task's consensus boxes, for a project with that one complete task. */
  const answers = async (r: Requester, taskId: string) => {
    const one = (await get(r.liveKey, `/api/v1/tasks/${taskId}/annotations`)).body.data.annotations;
    const oneWithSubs = (await get(r.liveKey, `/api/v1/tasks/${taskId}/annotations?view=submissions`)).body.data.annotations;
    const exported = (await get(r.liveKey, `/api/v1/projects/${r.projectUuid}/annotations`)).body.data;
    const exportedWithSubs = (await get(r.liveKey, `/api/v1/projects/${r.projectUuid}/annotations?view=submissions`)).body.data;
    const coco = JSON.parse((await get(r.liveKey, `/api/v1/projects/${r.projectUuid}/annotations?format=coco`)).text);
    const console = (await t.request({ method: 'GET', url: `/api/console/projects/${r.projectUuid}/tasks/${taskId}`, headers: r.auth })).body.data;
    expect(exported).toHaveLength(1);
    return {
      one,
      oneWithSubs,
      exported: exported[0].annotations,
      exportedWithSubs: exportedWithSubs[0].annotations,
      cocoBoxes: coco.annotations.map((a: { bbox: number[]; support: number }) => ({ bbox: a.bbox, support: a.support })),
      console: console.results.annotations,
    };
  };
  const expectEverywhere = async (r: Requester, taskId: string, boxes: unknown[]) => {
    const all = await answers(r, taskId);
    for (const [where, value] of Object.entries(all)) {
      if (where === 'cocoBoxes') continue;
      expect({ where, value }).toEqual({ where, value: boxes });
    }
    return all;
  };

  /** A task of `r` completed through the worker API by three new workers with the three standard submissions. */
  const completeThroughWorkerApi = async (r: Requester): Promise<{ taskId: string; workers: SignedIn[] }> => {
    const taskId = await aTask(t, r, { required_submissions: 3 });
    const workers = [await signUp(t), await signUp(t), await signUp(t)];
    const boxes = STANDARD_SUBMISSIONS;
    for (const [i, w] of workers.entries()) {
      const lease = await checkOut(t, w, r.projectUuid);
      expect(lease.task_uuid).toBe(taskId);
      if (i < 2) expect(await stored(taskId)).toEqual({ consensus: null, threshold: null });
      expect((await submitABox(t, w, lease.checkout_id, { annotations: boxes[i] })).status).toBe(201);
    }
    return { taskId, workers };
  };

  it('is written by the submission that completes the task, and is what every answer then reads', async () => {
    const r = await aRequester(t);
    const { taskId } = await completeThroughWorkerApi(r);

    const [task] = await t.db.query('SELECT completed_at FROM tasks WHERE id = $1', [taskId]);
    expect(task.completed_at).toBeInstanceOf(Date);
    const row = await stored(taskId);
    expect(row.threshold).toBe(0.5);
    expect(JSON.parse(row.consensus as string)).toEqual(STANDARD_AT_05);
    // The exact text of the answers' `annotations`, keys in the contract's order.
    const one = await get(r.liveKey, `/api/v1/tasks/${taskId}/annotations`);
    expect(row.consensus).toBe(JSON.stringify(one.body.data.annotations));
    await expectEverywhere(r, taskId, STANDARD_AT_05);

    // The answers read the stored text, not the submissions: a different stored box shows everywhere.
    const marker = [{ label: 'car', center_x: 11, center_y: 22, width: 7, height: 4, support: 9, agreement: 0.123 }];
    await t.db.query('UPDATE tasks SET consensus = $2::json WHERE id = $1', [taskId, JSON.stringify(marker)]);
    const all = await expectEverywhere(r, taskId, marker);
    expect(all.cocoBoxes).toEqual([{ bbox: [7.5, 20, 7, 4], support: 9 }]);
  });

  it('of a task of one submission is stored by the completing statement itself, with the project’s threshold', async () => {
    const r = await aRequester(t);
    // Not the default threshold, and exact in binary (the column is real).
    await setThreshold(r, 0.75);
    const taskId = await aTask(t, r, { required_submissions: 1 });
    const w = await signUp(t);
    const lease = await checkOut(t, w, r.projectUuid);
    // Two cars that would merge at any threshold if they were two workers' boxes.
    const annotations = [SHARED_PERSON, CAR_1, CAR_2];
    expect((await submitABox(t, w, lease.checkout_id, { annotations })).status).toBe(201);

    // One transaction wrote the submission and the task's consensus: no second one stored it after.
    const [same] = await t.db.query('SELECT t.xmin::text = s.xmin::text AS one FROM tasks t JOIN submissions s ON s.task_id = t.id WHERE t.id = $1', [taskId]);
    expect(same.one).toBe(true);
    const row = await stored(taskId);
    expect(row.threshold).toBe(0.75);
    // Stored as the current rule's, so the answers use it as it is.
    expect((await t.db.query('SELECT consensus_rule FROM tasks WHERE id = $1', [taskId]))[0].consensus_rule).toBe(CONSENSUS_RULE);
    const solo = [
      { ...SHARED_PERSON, support: 1, agreement: 1 },
      { ...CAR_1, support: 1, agreement: 1 },
      { ...CAR_2, support: 1, agreement: 1 },
    ].sort((a, b) => a.label.localeCompare(b.label) || a.center_y - b.center_y || a.center_x - b.center_x);
    expect(JSON.parse(row.consensus as string)).toEqual(solo);
    await expectEverywhere(r, taskId, solo);
    // The same bytes as a reader computes with the project's threshold when none is stored.
    await t.db.query('UPDATE tasks SET consensus = NULL, consensus_iou_threshold = NULL WHERE id = $1', [taskId]);
    const computed = await get(r.liveKey, `/api/v1/tasks/${taskId}/annotations`);
    expect(JSON.stringify(computed.body.data.annotations)).toBe(row.consensus);
    expect(await stored(taskId)).toEqual(row);
  });

  it('includes a submission committed while the completing one waited for the task row', async () => {
    // Two submits of one task racing: A's transaction has counted its submission and holds the task row
    // when B's submit (the last) starts; B waits for the row, and A commits. A statement's snapshot is
    // taken when it starts, so a consensus read in B's completing statement would miss A's boxes.
    const r = await aRequester(t);
    const taskId = await aTask(t, r, { required_submissions: 3 });
    const [a, b, c] = [await signUp(t), await signUp(t), await signUp(t)];
    const lease = async (w: SignedIn) => (await checkOut(t, w, r.projectUuid)).checkout_id;
    const [leaseA, leaseB, leaseC] = [await lease(a), await lease(b), await lease(c)];
    expect((await submitABox(t, c, leaseC, { annotations: [CAR_3, SHARED_PERSON] })).status).toBe(201);

    const held = t.db.createQueryRunner();
    await held.connect();
    try {
      await held.startTransaction();
      const [{ pid }] = await held.query('SELECT pg_backend_pid() AS pid');
      await held.query(
        `INSERT INTO submissions (id, checkout_id, task_id, worker_id, boxes, image_width, image_height, reward, request_hash)
         VALUES (gen_random_uuid(), $1, $2, $3, $4::jsonb, 640, 480, 0, 'held')`,
        [leaseA, taskId, a.userId, JSON.stringify([CAR_1, LONE_PERSON])],
      );
      await held.query(`UPDATE checkouts SET state = 'submitted', ended_at = now() WHERE id = $1`, [leaseA]);
      // What SUBMIT does to the task row (migration 1764500000000: the lease leaves the count here).
      await held.query('UPDATE tasks SET submission_count = submission_count + 1, leased_count = leased_count - 1 WHERE id = $1', [taskId]);

      const last = t.request({
        method: 'POST',
        url: `/api/work/checkouts/${leaseB}/submit`,
        headers: b.auth,
        body: { annotations: [SHARED_PERSON, CAR_2], image_width: 640, image_height: 480 },
      });
      // The last submit waits for the held task row.
      const waiting = async () =>
        (await t.db.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))', [pid]))[0].n > 0;
      expect(await eventually(waiting, 5_000, 20)).toBe(true);
      await held.commitTransaction();
      expect((await last).status).toBe(201);
    } finally {
      await held.release();
    }

    const row = await stored(taskId);
    expect(row.threshold).toBe(0.5);
    expect(JSON.parse(row.consensus as string)).toEqual(STANDARD_AT_05);
    await expectEverywhere(r, taskId, STANDARD_AT_05);
  });

  it('is computed again with the project’s new threshold after a change, answered, and stored with it', async () => {
    const r = await aRequester(t);
    const { taskId } = await completeThroughWorkerApi(r);
    expect((await stored(taskId)).threshold).toBe(0.5);

    await setThreshold(r, 0.95);
    // The export first (the one-task answer would store the new consensus before it runs).
    const exported = (await get(r.liveKey, `/api/v1/projects/${r.projectUuid}/annotations`)).body.data;
    expect(exported.map((e: { annotations: unknown }) => e.annotations)).toEqual([STANDARD_AT_095]);
    const afterExport = await stored(taskId);
    expect(afterExport.threshold).toBeCloseTo(0.95, 6);
    expect(JSON.parse(afterExport.consensus as string)).toEqual(STANDARD_AT_095);
    const all = await expectEverywhere(r, taskId, STANDARD_AT_095);
    expect(all.cocoBoxes).toEqual([{ bbox: [280, 160, 40, 80], support: 2 }]);

    // Back to 0.5: the one-task answer finds a consensus of 0.95, computes the 0.5 one and stores it.
    await setThreshold(r, 0.5);
    const one = await get(r.liveKey, `/api/v1/tasks/${taskId}/annotations`);
    expect(one.body.data.annotations).toEqual(STANDARD_AT_05);
    expect(await stored(taskId)).toEqual({ consensus: JSON.stringify(one.body.data.annotations), threshold: 0.5 });
    await expectEverywhere(r, taskId, STANDARD_AT_05);
  });

  it('is computed when missing (a task completed before the migration), and the answers are the same byte for byte', async () => {
    const r = await aRequester(t);
    const [w1, w2, w3] = [await signUp(t), await signUp(t), await signUp(t)];
    const newTask = (url: string | null) => aTask(t, r, { external_image_url: url });
    // Written with SQL like tasks completed before the stored consensus existed: none is stored.
    const standard = await newTask('https://images.example.com/straße/ü "1".jpg');
    await submitInDb(t.db, { taskId: standard, workerId: w1.userId, boxes: [CAR_1, LONE_PERSON], submittedAt: '2024-05-01T10:00:01Z' });
    await submitInDb(t.db, { taskId: standard, workerId: w2.userId, boxes: [SHARED_PERSON, CAR_2], submittedAt: '2024-05-01T10:00:02Z' });
    await submitInDb(t.db, { taskId: standard, workerId: w3.userId, boxes: [CAR_3, SHARED_PERSON], submittedAt: '2024-05-01T10:00:03Z' });
    await completeInDb(t.db, standard, '2024-05-01T10:05:00.123456Z');
    // One worker, an odd width (a half-pixel COCO x), and no external image.
    const odd = await newTask(null);
    await submitInDb(t.db, { taskId: odd, workerId: w1.userId, boxes: [{ label: 'person', center_x: 30, center_y: 60, width: 41, height: 79 }], submittedAt: '2024-05-02T00:00:00Z', size: [320, 240] });
    await completeInDb(t.db, odd, '2024-05-02T00:00:00.999999Z');
    const empty = await newTask('https://images.example.com/empty.jpg');
    await submitInDb(t.db, { taskId: empty, workerId: w2.userId, boxes: [], submittedAt: '2024-05-03T00:00:00Z' });
    await completeInDb(t.db, empty, '2024-05-03T00:00:00Z');
    const ids = [standard, odd, empty];
    const storedCount = async () =>
      (await t.db.query('SELECT count(*)::int AS n FROM tasks WHERE id = ANY($1) AND consensus IS NOT NULL AND consensus_iou_threshold = 0.5', [ids]))[0].n;
    expect(await storedCount()).toBe(0);

    const forget = (which: string[]) => t.db.query('UPDATE tasks SET consensus = NULL, consensus_iou_threshold = NULL WHERE id = ANY($1)', [which]);
    /** Every answer's text; `reset` runs before each request (so each format meets the same stored state). */
    const exportAll = async (reset?: () => Promise<unknown>) => {
      const text = async (url: string) => {
        await reset?.();
        return (await get(r.liveKey, url)).text;
      };
      const one: string[] = [];
      for (const id of ids) one.push(await text(`/api/v1/tasks/${id}/annotations`));
      return {
        json: await text(`/api/v1/projects/${r.projectUuid}/annotations`),
        withSubs: await text(`/api/v1/projects/${r.projectUuid}/annotations?view=submissions`),
        // Without `info` (its date_created is the time of the request).
        coco: (await text(`/api/v1/projects/${r.projectUuid}/annotations?format=coco`)).replace(/^.*?,"licenses":/, ''),
        one,
      };
    };

    // Nothing stored: every consensus is computed (and stored, one batch at a time).
    const computed = await exportAll(() => forget(ids));
    const body = JSON.parse(computed.json);
    expect(body.data).toEqual([
      { task_uuid: standard, external_image_url: 'https://images.example.com/straße/ü "1".jpg', completed_at: '2024-05-01T10:05:00.123Z', annotations: STANDARD_AT_05 },
      { task_uuid: odd, external_image_url: null, completed_at: '2024-05-02T00:00:00.999Z', annotations: [{ label: 'person', center_x: 30, center_y: 60, width: 41, height: 79, support: 1, agreement: 1 }] },
      { task_uuid: empty, external_image_url: 'https://images.example.com/empty.jpg', completed_at: '2024-05-03T00:00:00.000Z', annotations: [] },
    ]);
    const coco = JSON.parse(`{"licenses":${computed.coco}`);
    expect(coco.images.map((i: { file_name: string }) => i.file_name)).toEqual(['https://images.example.com/straße/ü "1".jpg', `${odd}.jpg`, 'https://images.example.com/empty.jpg']);
    expect(coco.annotations.map((a: { image_id: number; bbox: number[] }) => [a.image_id, a.bbox])).toEqual([
      [1, [101, 50, 100, 102]],
      [1, [280, 160, 40, 80]],
      [2, [9.5, 20.5, 41, 79]],
    ]);
    expect(await storedCount()).toBe(3);

    // All stored: PostgreSQL writes the entries; the bodies are the same bytes.
    expect(await exportAll()).toEqual(computed);

    // Some missing: stored and computed entries mixed in one batch, still the same bytes.
    expect(await exportAll(() => forget([standard, empty]))).toEqual(computed);
    expect(await storedCount()).toBe(3);
  });

  it('stores one task’s consensus with a plan made once per connection, not once per completion', async () => {
    // Every completing submit stores one task's consensus. PostgreSQL plans a prepared statement afresh
    // on each call while its generic plan looks dearer than a custom one, as the batch form's unnest does.
    const r = await aRequester(t);
    const { taskId } = await completeThroughWorkerApi(r);
    const text = (await stored(taskId)).consensus as string;
    // A table of a realistic size: on a handful of rows every plan costs about the same.
    await t.db.query(
      `INSERT INTO tasks (id, project_id, prompt, reward, required_submissions, allowed_completion_time_seconds)
       SELECT gen_random_uuid(), project_id, prompt, reward, required_submissions, allowed_completion_time_seconds
         FROM tasks, generate_series(1, 5000) WHERE id = $1`,
      [taskId],
    );
    await t.db.query('ANALYZE tasks');
    const client = await pgPool(t.db).connect();
    try {
      // The pool's connection may have run the consensus stores before (earlier tests): count what this adds.
      const plans = async () => {
        const rows: Array<{ generic_plans: string; custom_plans: string }> = (
          await client.query(`SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement LIKE '%UPDATE tasks t SET consensus%'`)
        ).rows;
        return rows.reduce((sum, r) => ({ generic: sum.generic + Number(r.generic_plans), custom: sum.custom + Number(r.custom_plans) }), { generic: 0, custom: 0 });
      };
      const before = await plans();
      for (let i = 0; i < 8; i++) {
        await storeConsensus(client, 0.5, [{ id: taskId, text, frame: null }]);
        await client.query('UPDATE tasks SET consensus = NULL, consensus_iou_threshold = NULL WHERE id = $1', [taskId]);
        await storeConsensus(client, 0.5, [{ id: taskId, text, frame: null }]);
      }
      const after = await plans();
      // PostgreSQL tries five custom plans before it may settle on the generic one.
      expect(after.custom - before.custom).toBeLessThanOrEqual(5);
      expect(after.generic - before.generic).toBeGreaterThanOrEqual(16 - 5);
    } finally {
      client.release();
    }
    expect(await stored(taskId)).toEqual({ consensus: text, threshold: 0.5 });
  });
});
