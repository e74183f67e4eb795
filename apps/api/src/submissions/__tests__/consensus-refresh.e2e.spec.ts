import { Logger } from '@nestjs/common';
import { eventually } from '../../../test/eventually';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { aRequester, aTask, signUp, type Requester } from '../../../test/factories';
import { completeInDb, submitInDb } from '../../../test/work-fixtures';
import { CAR_1, STANDARD_AT_05, STANDARD_AT_095, STANDARD_SUBMISSIONS } from '../../../test/consensus-fixtures';
import { ConsensusRule4Refresh1767600000000 } from '../../database/migrations/1767600000000-consensus-rule-4-refresh';
import { ConsensusRefresh } from '../consensus-refresh';
import { CONSENSUS_RULE } from '../stored-consensus';

/**
 * The jobs role's consensus refresh (consensus-refresh.ts, migration 1766100000000): a threshold change
 * marks the project, and a pass stores every complete task's consensus with the new threshold, so the
 * next export computes nothing.
 */
describe('consensus refresh', () => {
  let t: TestApp;
  let refresh: ConsensusRefresh;
  beforeAll(async () => {
    t = await startTestApp();
    refresh = t.app.get(ConsensusRefresh);
  });
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());

  const marked = async (r: Requester): Promise<boolean> =>
    (await t.db.query('SELECT consensus_refresh_pending AS marked FROM projects WHERE id = $1', [r.projectUuid]))[0].marked;
  const patch = async (r: Requester, body: Record<string, unknown>) => {
    const res = await t.request({ method: 'PATCH', url: `/api/console/projects/${r.projectUuid}`, headers: r.auth, body });
    expect(res.status).toBe(200);
  };
  /** The stored thresholds of the tasks, in their order (null: none stored). */
  const storedThresholds = async (ids: string[]): Promise<Array<number | null>> => {
    const rows: Array<{ id: string; threshold: number | null }> = await t.db.query(
      'SELECT id, consensus_iou_threshold::float8 AS threshold FROM tasks WHERE id = ANY($1)',
      [ids],
    );
    return ids.map((id) => rows.find((row) => row.id === id)?.threshold ?? null);
  };

  /** The stored consensus rule of the tasks, in their order. */
  const storedRules = async (ids: string[]): Promise<number[]> => {
    const rows: Array<{ id: string; rule: number }> = await t.db.query('SELECT id, consensus_rule AS rule FROM tasks WHERE id = ANY($1)', [ids]);
    return ids.map((id) => rows.find((row) => row.id === id)?.rule ?? -1);
  };

  /** `n` tasks of `r`, each completed (with SQL, nothing stored) by three workers' standard submissions. */
  const completeTasks = async (r: Requester, n: number): Promise<string[]> => {
    const workers = [await signUp(t), await signUp(t), await signUp(t)];
    const boxes = STANDARD_SUBMISSIONS;
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const taskId = await aTask(t, r, { required_submissions: 3 });
      for (const [w, worker] of workers.entries()) await submitInDb(t.db, { taskId, workerId: worker.userId, boxes: boxes[w] });
      await completeInDb(t.db, taskId);
      ids.push(taskId);
    }
    return ids;
  };

  it('marks a project when its threshold changes, and only then', async () => {
    const r = await aRequester(t);
    expect(await marked(r)).toBe(false);
    await patch(r, { display_name: 'Cars, again', consensus_iou_threshold: 0.5 });
    expect(await marked(r)).toBe(false);
    await patch(r, { consensus_iou_threshold: 0.75 });
    expect(await marked(r)).toBe(true);
    // By any statement: the mark is the database's, not the console's.
    await t.db.query('UPDATE projects SET consensus_refresh_pending = false WHERE id = $1', [r.projectUuid]);
    await t.db.query('UPDATE projects SET consensus_iou_threshold = 0.6 WHERE id = $1', [r.projectUuid]);
    expect(await marked(r)).toBe(true);
  });

  it('stores every complete task’s consensus with the new threshold, clears the mark, and the export reads it', async () => {
    const r = await aRequester(t);
    const ids = await completeTasks(r, 3);
    // One stored with the old threshold, as a completing submit would have; the others never stored.
    await t.request({ method: 'GET', url: `/api/v1/tasks/${ids[0]}/annotations`, headers: { apikey: r.liveKey } });
    expect(await storedThresholds(ids)).toEqual([0.5, null, null]);

    await patch(r, { consensus_iou_threshold: 0.95 });
    expect(await refresh.tick()).toBe(3);
    expect(await marked(r)).toBe(false);
    const thresholds = await storedThresholds(ids);
    for (const threshold of thresholds) expect(threshold).toBeCloseTo(0.95, 6);

    // What the export answers is the stored text: a marker put there shows.
    const stored: Array<{ consensus: unknown }> = await t.db.query('SELECT consensus FROM tasks WHERE id = ANY($1)', [ids]);
    for (const row of stored) expect(row.consensus).toEqual(STANDARD_AT_095);
    const marker = [{ label: 'car', center_x: 11, center_y: 22, width: 7, height: 4, support: 9, agreement: 0.123 }];
    await t.db.query('UPDATE tasks SET consensus = $2::json WHERE id = $1', [ids[1], JSON.stringify(marker)]);
    const exported = await t.request({ method: 'GET', url: `/api/v1/projects/${r.projectUuid}/annotations`, headers: { apikey: r.liveKey } });
    expect(exported.body.data.map((e: { task_uuid: string; annotations: unknown }) => [e.task_uuid, e.annotations])).toEqual([
      [ids[0], STANDARD_AT_095],
      [ids[1], marker],
      [ids[2], STANDARD_AT_095],
    ]);

    // Nothing left to do: a second pass stores nothing and does not touch the marker.
    expect(await refresh.tick()).toBe(0);
    const [again] = await t.db.query('SELECT consensus FROM tasks WHERE id = $1', [ids[1]]);
    expect(again.consensus).toEqual(marker);

    // And back: 0.5 again.
    await patch(r, { consensus_iou_threshold: 0.5 });
    expect(await refresh.tick()).toBe(3);
    const back: Array<{ consensus: unknown }> = await t.db.query('SELECT consensus FROM tasks WHERE id = ANY($1)', [ids]);
    for (const row of back) expect(row.consensus).toEqual(STANDARD_AT_05);
  });

  it('keeps what it stores over a consensus of the current rule: the next export computes nothing', async () => {
    const r = await aRequester(t);
    const ids = await completeTasks(r, 2);
    // Stored by the current rule at 0.5, as every completing submit stores it.
    await t.request({ method: 'GET', url: `/api/v1/projects/${r.projectUuid}/annotations`, headers: { apikey: r.liveKey } });
    expect(await storedRules(ids)).toEqual([CONSENSUS_RULE, CONSENSUS_RULE]);

    await patch(r, { consensus_iou_threshold: 0.95 });
    expect(await refresh.tick()).toBe(2);
    // Before migration 1767300000000 the rule's reset trigger took these for writes of the code before
    // rules and set the rule to 1, so the export computed every task again.
    expect(await storedRules(ids)).toEqual([CONSENSUS_RULE, CONSENSUS_RULE]);
    // So the export answers the stored text: a marker put there shows.
    const marker = [{ label: 'car', center_x: 11, center_y: 22, width: 7, height: 4, support: 9, agreement: 0.123 }];
    await t.db.query('UPDATE tasks SET consensus = $2::json WHERE id = $1', [ids[1], JSON.stringify(marker)]);
    const exported = await t.request({ method: 'GET', url: `/api/v1/projects/${r.projectUuid}/annotations`, headers: { apikey: r.liveKey } });
    expect(exported.body.data.map((e: { annotations: unknown }) => e.annotations)).toEqual([STANDARD_AT_095, marker]);

    // A reader's store after a change the refresh has not reached keeps the rule too.
    await patch(r, { consensus_iou_threshold: 0.5 });
    await t.request({ method: 'GET', url: `/api/v1/projects/${r.projectUuid}/annotations`, headers: { apikey: r.liveKey } });
    expect(await storedRules(ids)).toEqual([CONSENSUS_RULE, CONSENSUS_RULE]);
  });

  it('walks more complete tasks than one page, and leaves incomplete ones alone', async () => {
    const r = await aRequester(t);
    const [w] = [await signUp(t)];
    const open = await aTask(t, r, { required_submissions: 3 });
    await submitInDb(t.db, { taskId: open, workerId: w.userId, boxes: [CAR_1] });
    // 260 complete copies of it (the walk's pages hold 250), made with SQL: nothing stored, no submissions.
    const ids: string[] = (
      await t.db.query(
        `INSERT INTO tasks
         SELECT (jsonb_populate_record(t, jsonb_build_object('id', gen_random_uuid(), 'required_submissions', 1,
                                                             'completed_at', now() - make_interval(secs => g)))).*
           FROM tasks t, generate_series(1, 260) g WHERE t.id = $1
         RETURNING id`,
        [open],
      )
    ).map((row: { id: string }) => row.id);
    await t.db.query('UPDATE projects SET consensus_iou_threshold = 0.7 WHERE id = $1', [r.projectUuid]);
    expect(await refresh.tick()).toBe(260);
    const [counts] = await t.db.query(
      `SELECT count(*) FILTER (WHERE consensus::text = '[]' AND consensus_iou_threshold = 0.7::real)::int AS stored,
              count(*) FILTER (WHERE consensus IS NOT NULL AND completed_at IS NULL)::int AS open
         FROM tasks WHERE project_id = $1`,
      [r.projectUuid],
    );
    expect(counts).toEqual({ stored: ids.length, open: 0 });
  });

  it('leaves the project marked when its threshold changes during the pass', async () => {
    const r = await aRequester(t);
    const ids = await completeTasks(r, 1);
    await patch(r, { consensus_iou_threshold: 0.95 });
    // The change lands after the pass read 0.95 and before it clears the mark.
    const proto = ConsensusRefresh.prototype as unknown as { storeStale: (...args: unknown[]) => Promise<number> };
    const storeStale = proto.storeStale;
    jest.spyOn(proto, 'storeStale').mockImplementationOnce(async function (this: ConsensusRefresh, ...args: unknown[]) {
      const stored = await storeStale.apply(this, args);
      await patch(r, { consensus_iou_threshold: 0.5 });
      return stored;
    });
    expect(await refresh.tick()).toBe(1);
    expect(await marked(r)).toBe(true);
    // The next pass stores 0.5's and clears the mark.
    expect(await refresh.tick()).toBe(1);
    expect(await marked(r)).toBe(false);
    expect(await storedThresholds(ids)).toEqual([0.5]);
  });

  it('goes on to the next project when one fails', async () => {
    const [first, second] = [await aRequester(t), await aRequester(t)].sort((a, b) => a.projectUuid.localeCompare(b.projectUuid));
    const ids = [...(await completeTasks(first, 1)), ...(await completeTasks(second, 1))];
    await patch(first, { consensus_iou_threshold: 0.75 });
    await patch(second, { consensus_iou_threshold: 0.75 });
    // The first project by id fails (as a bad row or a lost connection would), the second is refreshed.
    const proto = ConsensusRefresh.prototype as unknown as { storeStale: (...args: unknown[]) => Promise<number> };
    const storeStale = proto.storeStale;
    const broken = jest.spyOn(proto, 'storeStale').mockImplementation(async function (this: ConsensusRefresh, ...args: unknown[]) {
      if (args[1] === first.projectUuid) throw new Error('a broken project');
      return storeStale.apply(this, args);
    });
    await refresh.tick();
    expect(await marked(first)).toBe(true);
    expect(await marked(second)).toBe(false);
    expect(await storedThresholds(ids)).toEqual([null, 0.75]);
    // Mended, it is refreshed by the next pass.
    broken.mockRestore();
    expect(await refresh.tick()).toBe(1);
    expect(await marked(first)).toBe(false);
  });

  it('skips a project another process is refreshing', async () => {
    const r = await aRequester(t);
    await completeTasks(r, 1);
    await patch(r, { consensus_iou_threshold: 0.95 });
    const other = t.db.createQueryRunner();
    await other.connect();
    try {
      await other.query('SELECT pg_advisory_lock(7340001, hashtext($1))', [r.projectUuid]);
      expect(await refresh.tick()).toBe(0);
      expect(await marked(r)).toBe(true);
      await other.query('SELECT pg_advisory_unlock(7340001, hashtext($1))', [r.projectUuid]);
      expect(await refresh.tick()).toBe(1);
      expect(await marked(r)).toBe(false);
    } finally {
      await other.release();
    }
  });

  it('stops at a shutdown and hands its connection back before the pool closes, and the shutdown waits for it', async () => {
    const own = await startTestApp();
    const r = await aRequester(own);
    const [w] = [await signUp(own)];
    const taskId = await aTask(own, r, { required_submissions: 1 });
    await submitInDb(own.db, { taskId, workerId: w.userId, boxes: [CAR_1] });
    await completeInDb(own.db, taskId);
    // 3,000 complete copies (nothing stored): a pass of several pages.
    await own.db.query(
      `INSERT INTO tasks
       SELECT (jsonb_populate_record(t, jsonb_build_object('id', gen_random_uuid(), 'completed_at', now() - make_interval(secs => g)))).*
         FROM tasks t, generate_series(1, 3000) g WHERE t.id = $1`,
      [taskId],
    );
    await own.db.query('UPDATE projects SET consensus_iou_threshold = 0.7 WHERE id = $1', [r.projectUuid]);
    const warn = jest.spyOn(Logger.prototype, 'warn');

    const pass = own.app.get(ConsensusRefresh).tick();
    await own.close();
    // Without the stop before the shutdown hooks: TypeORM's hook ended the pool first, whose end waited
    // for the pass's client, so the pass went through the whole project (or, started after, failed).
    expect(await pass).toBeLessThan(3001);
    expect(warn.mock.calls.filter(([message]) => String(message).includes('consensus refresh'))).toEqual([]);
  });

  it('runs on its own every CONSENSUS_REFRESH_INTERVAL_MS in a jobs process, and not in an HTTP process', async () => {
    const jobs = await startTestApp({ CONSENSUS_REFRESH_INTERVAL_MS: '50' });
    try {
      const r = await aRequester(jobs);
      const taskId = await aTask(jobs, r, { required_submissions: 1 });
      const [w] = [await signUp(jobs)];
      await submitInDb(jobs.db, { taskId, workerId: w.userId, boxes: [CAR_1] });
      await jobs.db.query('UPDATE projects SET consensus_iou_threshold = 0.3 WHERE id = $1', [r.projectUuid]);
      const refreshed = async () =>
        (await jobs.db.query('SELECT consensus_iou_threshold = 0.3::real AS done FROM tasks WHERE id = $1', [taskId]))[0].done === true;
      expect(await eventually(refreshed, 10_000, 50)).toBe(true);
    } finally {
      await jobs.close();
    }
    const http = await startTestApp({ CONSENSUS_REFRESH_INTERVAL_MS: '50' }, { role: 'http' });
    try {
      expect(() => http.app.get(ConsensusRefresh)).toThrow();
    } finally {
      await http.close();
    }
  });

  it('stores a consensus of the rule before again once the migration that raised the rule marked its project', async () => {
    // An app of its own: the migration marks every project of its database.
    const own = await startTestApp();
    try {
      const r = await aRequester(own);
      const [w] = [await signUp(own)];
      const taskId = await aTask(own, r, { required_submissions: 1 });
      await submitInDb(own.db, { taskId, workerId: w.userId, boxes: [CAR_1] });
      await completeInDb(own.db, taskId);
      await own.request({ method: 'GET', url: `/api/v1/tasks/${taskId}/annotations`, headers: { apikey: r.liveKey } });
      // What the code of rule 3 stored; the project not marked, as after any pass.
      await own.db.query('UPDATE tasks SET consensus_rule = 3 WHERE id = $1', [taskId]);
      const state = async () =>
        (await own.db.query('SELECT p.consensus_refresh_pending AS marked, t.consensus_rule AS rule FROM tasks t JOIN projects p ON p.id = t.project_id WHERE t.id = $1', [taskId]))[0];
      expect(await state()).toEqual({ marked: false, rule: 3 });

      const q = own.db.createQueryRunner();
      try {
        await new ConsensusRule4Refresh1767600000000().up(q);
      } finally {
        await q.release();
      }
      expect(await own.app.get(ConsensusRefresh).tick()).toBe(1);
      expect(await state()).toEqual({ marked: false, rule: CONSENSUS_RULE });
    } finally {
      await own.close();
    }
  });
});
