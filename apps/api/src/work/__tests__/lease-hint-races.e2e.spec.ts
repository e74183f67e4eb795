import { randomUUID } from 'node:crypto';
import { eventually } from '../../../test/eventually';
import { aRequester, aTask, checkOut, signUp } from '../../../test/factories';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { leaseHintAndTruth } from '../../../test/work-fixtures';
import { pgPool } from '../../database/prepared-statement';
import { expireLeases } from '../lease-expiry';

/**
 * The task row's lease hint (migration 1764300000000: leased_count, lease_expiry_min) when a lease
 * ends while a checkout of the same task is in flight. The lease's end waits for the task row that the
 * checkout's trigger holds; the earliest expiry it then writes must count the lease that checkout
 * committed meanwhile. Read with the snapshot taken before the wait, it missed it: NULL, or a later
 * expiry, and once that lease ran out its free slot stayed hidden from the lease query until the expiry
 * job or the sweep ran.
 */
describe('the lease hint when a lease ends while a checkout of its task commits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const lockWaits = async (): Promise<number> =>
    (await t.db.query(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)).length;
  const hintAndTruth = (taskId: string) => leaseHintAndTruth(t.db, taskId);

  for (const ending of ['the expiry job', 'the sweep', 'a release'] as const) {
    it(`stays exact when ${ending} ends a lease, and the slot of the lease it would have missed is free once that runs out`, async () => {
      const r = await aRequester(t);
      const taskId = await aTask(t, r, { required_submissions: 2 });
      const [a, c, d, e] = await Promise.all([signUp(t), signUp(t), signUp(t), signUp(t)]);
      const first = await checkOut(t, a, r.projectUuid);
      if (ending !== 'a release') {
        await t.db.query(`UPDATE checkouts SET expires_at = now() - interval '1 second' WHERE id = $1`, [first.checkout_id]);
      }
      const checkout = await pgPool(t.db).connect();
      let shortLease: Date;
      try {
        // A checkout of the same task, as LEASE_NEXT_TASK inserts it (the insert trigger takes the task row),
        // not yet committed; its lease runs out in 2 s.
        await checkout.query('BEGIN');
        [{ expires_at: shortLease }] = (
          await checkout.query(
            `INSERT INTO checkouts (id, task_id, worker_id, expires_at) VALUES ($1, $2, $3, now() + interval '2 seconds') RETURNING expires_at`,
            [randomUUID(), taskId, c.userId],
          )
        ).rows;
        const ended =
          ending === 'the expiry job'
            ? expireLeases(t.db, first.checkout_id)
            : ending === 'the sweep'
              ? expireLeases(t.db)
              : t.request({ method: 'POST', url: `/api/work/checkouts/${first.checkout_id}/release`, headers: a.auth });
        if (ending === 'the sweep') {
          // The sweep never waits for a task (lease-expiry.ts): it leaves this lease to its next pass,
          // which runs after the checkout committed. (It also ends the run-out leases of earlier tests.)
          expect(await ended).not.toContain(first.checkout_id);
          await checkout.query('COMMIT');
          expect(await expireLeases(t.db)).toContain(first.checkout_id);
        } else {
          // It has ended the lease and waits for the task row.
          expect(await eventually(async () => (await lockWaits()) === 1)).toBe(true);
          await checkout.query('COMMIT');
          const done = await ended;
          if (ending === 'a release') expect(done).toMatchObject({ status: 200, body: { data: { state: 'released' } } });
          else expect(done).toContain(first.checkout_id);
        }
      } finally {
        await checkout.query('ROLLBACK').catch(() => undefined);
        checkout.release();
      }
      // One active lease, the one committed while the end waited; the hint says so (it said NULL).
      expect(await hintAndTruth(taskId)).toEqual({ hint: [1, shortLease.toISOString()], truth: [1, shortLease.toISOString()] });

      // Its consequence: the task's last slot is leased for 10 minutes, then the short lease runs out.
      await checkOut(t, d, r.projectUuid);
      await new Promise((resolve) => setTimeout(resolve, shortLease.getTime() - Date.now() + 100));
      // Its slot is free at once, the expiry job or not: the lease query must not skip the task on its hint.
      const next = await t.request({ method: 'POST', url: '/api/work/checkouts', headers: e.auth, body: { project_uuid: r.projectUuid } });
      expect(next.status).toBe(201);
      expect(next.body.data.task_uuid).toBe(taskId);
    });
  }
});
