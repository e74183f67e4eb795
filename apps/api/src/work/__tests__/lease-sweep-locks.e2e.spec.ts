import { aRequester, aTask, checkOut, signUp } from '../../../test/factories';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { pgPool } from '../../database/prepared-statement';
import { expireLeases } from '../lease-expiry';

/**
 * The periodic sweep ends run-out leases by the thousand, each end locking its task (the lease-count
 * trigger). cancel_outstanding locks a project's open tasks one after another: a sweep that waited
 * for one of them while holding another's lock could deadlock with it. So the sweep never waits for a
 * task: it leaves a lease whose task is locked to a later pass.
 */
describe('the lease sweep and locked tasks', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('expires the run-out leases of free tasks at once and leaves the one whose task another transaction holds', async () => {
    const r = await aRequester(t);
    for (let i = 0; i < 2; i++) await aTask(t, r, { required_submissions: 1 });
    const leases: string[] = [];
    for (let i = 0; i < 2; i++) leases.push((await checkOut(t, await signUp(t), r.projectUuid)).checkout_id);
    await t.db.query(`UPDATE checkouts SET expires_at = now() - interval '1 second', checked_out_at = now() - interval '1 hour' WHERE id = ANY($1)`, [leases]);
    const [held] = await t.db.query(`SELECT task_id FROM checkouts WHERE id = $1`, [leases[0]]);

    const holder = await pgPool(t.db).connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM tasks WHERE id = $1 FOR NO KEY UPDATE', [held.task_id]);
      // Bounded: a sweep that waited for the held task would only end when the holder does.
      const swept = await Promise.race([
        expireLeases(t.db),
        new Promise<string>((resolve) => setTimeout(() => resolve('waited for the locked task'), 3_000)),
      ]);
      expect(swept).toEqual([leases[1]]);
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
    // The next pass takes it.
    expect(await expireLeases(t.db)).toEqual([leases[0]]);
  });
});
