import { WORK_ERROR } from '@crowdbox/contracts';
import type { PoolClient } from 'pg';
import { eventually } from '../../../test/eventually';
import { A_BOX, aRequester, aTask, checkOut, signUp, type SignedIn } from '../../../test/factories';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { pgPool } from '../../database/prepared-statement';
import { expireLeases } from '../../work/lease-expiry';

/** The advisory lock key that holds a cancel right after it has cancelled its tasks (see `pauseAfterCancelling`). */
const PAUSE_KEY = 815_001;

/**
 * cancel_outstanding (projects/cancel-outstanding.ts) against a lease taken while it ran: the lease is
 * new to the cancel's first statement (which locks the live leases it sees), and its worker's submit,
 * release or expiry locks it and then waits for its task, which the cancel already holds. The cancel
 * used to wait for that lease in its last statement: a deadlock (40P01), and one side answered 500.
 */
describe('cancel_outstanding racing a submit, release or expiry of a lease taken during it', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
    // A test hook in this file's own database: the transaction that cancels tasks (the only writer that
    // sets cancelled_at) waits on PAUSE_KEY right after that statement, holding every task row it took,
    // while the test holds the key. Before the fix the cancel could only be stopped there by a lock
    // wait of its last statement, which the fix no longer makes.
    await t.db.query(`
      CREATE FUNCTION test_pause_after_cancelling() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE o.cancelled_at IS NULL AND n.cancelled_at IS NOT NULL) THEN
          PERFORM pg_advisory_xact_lock(${PAUSE_KEY});
        END IF;
        RETURN NULL;
      END $$`);
    await t.db.query(`
      CREATE TRIGGER test_pause_after_cancelling AFTER UPDATE ON tasks REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION test_pause_after_cancelling()`);
  });
  afterAll(async () => {
    await t.close();
  });

  const leaseState = async (w: SignedIn, checkoutId: string) =>
    (await t.request({ method: 'GET', url: `/api/work/checkouts/${checkoutId}`, headers: w.auth })).body.data.state;
  /** What each backend of this test's database that waits for a lock waits for ('advisory', 'transactionid', …). */
  const lockWaits = async (): Promise<string[]> =>
    (
      await t.db.query(
        `SELECT wait_event FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
      )
    ).map((row: { wait_event: string }) => row.wait_event);
  const connect = (): Promise<PoolClient> => pgPool(t.db).connect();

  type Race = 'submit' | 'release' | 'expiry';
  const cases: Array<{ race: Race; required: number }> = [
    { race: 'submit', required: 1 },
    { race: 'submit', required: 2 },
    { race: 'release', required: 1 },
    { race: 'expiry', required: 1 },
  ];

  for (const { race, required } of cases) {
    it(`neither answers 500 with a ${race} (task of ${required}), and the lease ends at once`, async () => {
      const r = await aRequester(t);
      const first = await aTask(t, r, { required_submissions: 1 });
      const taskId = await aTask(t, r, { required_submissions: required });
      const [a, b] = await Promise.all([signUp(t), signUp(t)]);
      const before = await checkOut(t, a, r.projectUuid);
      expect(before.task_uuid).toBe(first);

      const holder = await connect();
      const gate = await connect();
      let cancel: ReturnType<typeof t.request> | undefined;
      let racing: Promise<unknown> | undefined;
      try {
        await gate.query('BEGIN');
        await gate.query('SELECT pg_advisory_xact_lock($1)', [PAUSE_KEY]);
        // The cancel's first statement (lock the live leases) waits for this one, its snapshot taken.
        await holder.query('BEGIN');
        await holder.query('SELECT 1 FROM checkouts WHERE id = $1 FOR UPDATE', [before.checkout_id]);
        cancel = t.request({ method: 'POST', url: `/api/console/projects/${r.projectUuid}/cancel_outstanding`, headers: r.auth });
        expect(await eventually(async () => (await lockWaits()).length === 1)).toBe(true);
        // A lease that snapshot does not have.
        const lease = await checkOut(t, b, r.projectUuid);
        expect(lease.task_uuid).toBe(taskId);
        if (race === 'expiry') await t.db.query(`UPDATE checkouts SET expires_at = now() - interval '1 second' WHERE id = $1`, [lease.checkout_id]);
        await holder.query('COMMIT');
        // The cancel has cancelled both tasks and holds their rows.
        expect(await eventually(async () => (await lockWaits()).includes('advisory'))).toBe(true);
        // The worker's request locks its lease and waits for its task.
        racing =
          race === 'submit'
            ? t.request({ method: 'POST', url: `/api/work/checkouts/${lease.checkout_id}/submit`, headers: b.auth, body: { annotations: [A_BOX], image_width: 640, image_height: 480 } })
            : race === 'release'
              ? t.request({ method: 'POST', url: `/api/work/checkouts/${lease.checkout_id}/release`, headers: b.auth })
              : expireLeases(t.db, lease.checkout_id);
        expect(await eventually(async () => (await lockWaits()).filter((w) => w !== 'advisory').length === 1)).toBe(true);
        await gate.query('COMMIT');

        const [cancelled, raced] = await Promise.all([cancel, racing.catch((error: Error) => error)]);
        // Before the fix one of the two failed with 40P01: a 500, or the expiry job's error.
        const outcome = (res: unknown) => (res instanceof Error ? res.message : (res as { status?: number }).status ?? 'done');
        expect({ cancel: outcome(cancelled), [race]: outcome(raced) }).toEqual({
          cancel: 200,
          [race]: race === 'submit' ? 422 : race === 'release' ? 200 : 'done',
        });
        // The lease taken during the cancel was ended by the request that held it, not by the cancel.
        expect(cancelled.body.data).toEqual({ cancelled: 2, unspent_reward_cents: (1 + required) * 25, ended_checkouts: 1 });
        if (race === 'submit') {
          expect(raced).toMatchObject({ status: 422, body: { errors: [{ field: 'root', detail: WORK_ERROR.cancelled }] } });
          expect(await leaseState(b, lease.checkout_id)).toBe('cancelled');
        } else if (race === 'release') {
          expect(raced).toMatchObject({ status: 200, body: { data: { checkout_id: lease.checkout_id, state: 'cancelled' } } });
          expect(await leaseState(b, lease.checkout_id)).toBe('cancelled');
        } else {
          expect(raced).toEqual([lease.checkout_id]);
          expect(await leaseState(b, lease.checkout_id)).toBe('expired');
        }
        expect(await leaseState(a, before.checkout_id)).toBe('cancelled');
        // Nothing counted on the cancelled task, no lease left active, the lease count exact.
        const tasks: Array<{ id: string; submission_count: number; leased_count: number; active: number; cancelled: boolean }> = await t.db.query(
          `SELECT t.id, t.submission_count, t.leased_count, t.cancelled_at IS NOT NULL AS cancelled,
                  (SELECT count(*)::int FROM checkouts c WHERE c.task_id = t.id AND c.state = 'active') AS active
             FROM tasks t WHERE t.project_id = $1 ORDER BY t.created_at`,
          [r.projectUuid],
        );
        expect(tasks).toEqual([
          { id: first, submission_count: 0, leased_count: 0, active: 0, cancelled: true },
          { id: taskId, submission_count: 0, leased_count: 0, active: 0, cancelled: true },
        ]);
      } finally {
        await holder.query('ROLLBACK').catch(() => undefined);
        await gate.query('ROLLBACK').catch(() => undefined);
        holder.release();
        gate.release();
        // A failed assertion above must not leave requests running into the next test.
        await Promise.allSettled([cancel, racing]);
      }
    });
  }
});
