import { aRequester, aTask, createProject, signUp } from '../../../test/factories';
import { eventually } from '../../../test/eventually';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { pgPool } from '../../database/prepared-statement';
import { CheckoutsService } from '../checkouts.service';

/**
 * An account's deletion (releaseAll) and a block (endForAccount) end several leases of one worker in one
 * statement, each locking the leases' tasks. Two of them for different workers with leases on the same
 * tasks must lock those tasks in one order, or each can hold the task the other waits for (40P01).
 */
describe('ending several leases and locked tasks', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('a deletion and a block ending two workers’ leases on the same tasks, in opposite lease orders, do not deadlock', async () => {
    const r = await aRequester(t);
    const other = await createProject(t, r);
    const taskA = await aTask(t, r, { required_submissions: 2 });
    const taskB = await aTask(t, { ...r, projectUuid: other.uuid }, { required_submissions: 2 });
    const [w1, w2] = await Promise.all([signUp(t), signUp(t)]);
    // Lease ids chosen so that w1's leases come A then B and w2's B then A: ordered by lease, the two
    // statements would lock the tasks in opposite orders.
    const leases: Array<[string, string, string]> = [
      ['00000000-0000-4000-8000-000000000001', taskA, w1.userId],
      ['ffffffff-ffff-4fff-bfff-ffffffffffff', taskB, w1.userId],
      ['00000000-0000-4000-8000-000000000002', taskB, w2.userId],
      ['ffffffff-ffff-4fff-bfff-fffffffffffe', taskA, w2.userId],
    ];
    for (const [id, taskId, workerId] of leases) {
      await t.db.query(`INSERT INTO checkouts (id, task_id, worker_id, expires_at) VALUES ($1, $2, $3, now() + interval '10 minutes')`, [id, taskId, workerId]);
    }

    const checkouts = t.app.get(CheckoutsService);
    // Both tasks held while the two start, so each takes its first task the moment they are let go,
    // before either takes its second.
    const holder = await pgPool(t.db).connect();
    let results: PromiseSettledResult<unknown>[];
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM tasks WHERE id = ANY($1) FOR NO KEY UPDATE', [[taskA, taskB]]);
      const both = Promise.allSettled([
        t.db.transaction((tx) => checkouts.releaseAll(tx, w1.userId)),
        t.db.transaction((tx) => checkouts.endForAccount(tx, w2.userId, r.accountId)),
      ]);
      expect(
        await eventually(
          async () => (await t.db.query(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%lease AS%'`)).length === 2,
        ),
      ).toBe(true);
      await holder.query('COMMIT');
      results = await both;
    } finally {
      holder.release();
    }
    expect(results.map((result) => (result.status === 'rejected' ? (result.reason as { code?: string }).code : 'ended'))).toEqual(['ended', 'ended']);
    const states = await t.db.query(`SELECT id, state FROM checkouts WHERE id = ANY($1) ORDER BY id`, [leases.map(([id]) => id)]);
    expect(states.map((row: { state: string }) => row.state)).toEqual(['released', 'cancelled', 'cancelled', 'released']);
  });
});
