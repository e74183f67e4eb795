import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * submissions_guard_insert as migration 1763900000000 made it, with the task read by `taskCheck`: up
 * locks the task and ends a live lease of a cancelled task, down restores the plain read.
 */
function submissionsGuardInsert(taskCheck: string): string {
  return `
      CREATE OR REPLACE FUNCTION submissions_guard_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        lease record;
        task record;
      BEGIN
        SELECT task_id, worker_id, state, expires_at INTO lease FROM checkouts WHERE id = NEW.checkout_id FOR UPDATE;
        IF NOT FOUND OR lease.task_id <> NEW.task_id OR lease.worker_id <> NEW.worker_id THEN
          RAISE EXCEPTION 'submission does not match its checkout' USING ERRCODE = 'CB005';
        END IF;${taskCheck}
        RETURN NEW;
      END $$`;
}

const READ_TASK = `
        IF lease.state <> 'active' OR lease.expires_at <= now() THEN
          RAISE EXCEPTION 'checkout % is not active', NEW.checkout_id USING ERRCODE = 'CB006';
        END IF;
        SELECT completed_at, cancelled_at INTO task FROM tasks WHERE id = NEW.task_id;
        IF task.completed_at IS NOT NULL OR task.cancelled_at IS NOT NULL THEN
          RAISE EXCEPTION 'task % is complete or cancelled', NEW.task_id USING ERRCODE = 'CB001';
        END IF;`;

const LOCK_TASK = `
        IF lease.state <> 'active' THEN
          RAISE EXCEPTION 'checkout % is not active', NEW.checkout_id USING ERRCODE = 'CB006';
        END IF;
        SELECT completed_at, cancelled_at INTO task FROM tasks WHERE id = NEW.task_id FOR NO KEY UPDATE;
        IF task.cancelled_at IS NOT NULL THEN
          UPDATE checkouts SET state = 'cancelled', ended_at = now() WHERE id = NEW.checkout_id;
          RETURN NULL;
        END IF;
        IF lease.expires_at <= now() THEN
          RAISE EXCEPTION 'checkout % is not active', NEW.checkout_id USING ERRCODE = 'CB006';
        END IF;
        IF task.completed_at IS NOT NULL THEN
          RAISE EXCEPTION 'task % is complete or cancelled', NEW.task_id USING ERRCODE = 'CB001';
        END IF;`;

/**
 * A submit of a live lease whose task a cancel_outstanding took meanwhile ends that lease as
 * `cancelled` instead of deadlocking with the cancel (docs/decisions.md, "cancel_outstanding").
 *
 * The cancel (projects/cancel-outstanding.ts) locks the live leases it sees, then every open task, then
 * ends the leases. A lease taken between its first two steps is new to it; the submit of that lease
 * locks it (this trigger) and then waits for its task, which the cancel holds, and the cancel used to
 * wait for the lease in its last step: 40P01, a 500 for one of the two. The cancel now skips a locked
 * lease (SKIP LOCKED) and leaves it to the request that holds it, so this trigger reads the task under
 * its row lock, taken right after the lease's (the order every lease writer uses), and so sees a
 * cancel that committed while it waited:
 *
 * - a cancelled task: the lease ends `cancelled` here, with the count triggers of the lease, and the
 *   submission is not written (RETURN NULL), so the statement commits that and nothing else. SUBMIT
 *   (work/submit.service.ts) then writes no row and answers from the lease, `cancelled` (422), as it
 *   does for a lease the cancel ended. Raising instead would roll back the lease's end with the
 *   submission, leaving it active on a cancelled task until it ran out. A lease past its time ends
 *   `cancelled` too, as the cancel would have ended it;
 * - a completed task, or a lease that ended or ran out: refused as before (CB001, CB006). A read
 *   without the lock could miss a completion committed while the submit waited for the task, and the
 *   count CHECKs then refused it with a 500.
 *
 * The lock costs the submit nothing it did not pay: its update of the task (the same statement) locked
 * the row anyway, and a BEFORE UPDATE trigger on tasks (migration 1765700000000) makes PostgreSQL take
 * that lock before the update; now it is taken here, and that later lock finds it held.
 */
export class SubmitEndsItsCancelledLease1765900000000 implements MigrationInterface {
  name = 'SubmitEndsItsCancelledLease1765900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(submissionsGuardInsert(LOCK_TASK));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(submissionsGuardInsert(READ_TASK));
  }
}
