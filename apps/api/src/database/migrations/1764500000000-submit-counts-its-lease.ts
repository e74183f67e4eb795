import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * checkouts_guard_state as migration 1763900000000 made it, with `extra` checks before RETURN: up adds
 * SUBMITTED_NEEDS_ITS_SUBMISSION, down restores the function without it.
 */
function checkoutsGuardState(extra: string): string {
  return `
      CREATE OR REPLACE FUNCTION checkouts_guard_state() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.state <> OLD.state AND OLD.state <> 'active' THEN
          RAISE EXCEPTION 'checkout % is already %', OLD.id, OLD.state USING ERRCODE = 'CB004';
        END IF;
        IF NEW.task_id <> OLD.task_id OR NEW.worker_id <> OLD.worker_id THEN
          RAISE EXCEPTION 'a checkout never changes task or worker' USING ERRCODE = 'CB004';
        END IF;${extra}
        RETURN NEW;
      END $$`;
}

/**
 * The submission is written first, in the same statement (rows written earlier in a statement are
 * visible to its row triggers).
 */
const SUBMITTED_NEEDS_ITS_SUBMISSION = `
        IF NEW.state = 'submitted' AND OLD.state = 'active'
           AND NOT EXISTS (SELECT 1 FROM submissions s WHERE s.checkout_id = NEW.id) THEN
          RAISE EXCEPTION 'checkout % has no submission', NEW.id USING ERRCODE = 'CB004';
        END IF;`;

/**
 * The submit takes its lease off the task's lease count itself, in the task update it makes anyway.
 *
 * Migration 1764300000000 kept `leased_count` and `lease_expiry_min` with an AFTER trigger on every
 * lease that leaves `active`. For a submit that meant a second update of the task row in the same
 * statement (work/submit.service.ts already updates it for `submission_count`), with a plpgsql call
 * and a scan for the new earliest expiry: about a sixth of the submit statement's PostgreSQL time
 * (docs/performance.md, "Checkout and submit"). Now:
 *
 * - the trigger leaves `active` -> `submitted` alone; SUBMIT's task update takes one off
 *   `leased_count` (on the row version it locked, so a lease committed meanwhile is counted) and
 *   empties `lease_expiry_min` when it was the last lease. With leases left, it keeps the old earliest
 *   expiry: a lower bound of the live ones, which only makes the lease query count that task's leases
 *   instead of skipping it on its row (the hint never hides a free slot). Every other way out of
 *   `active` recomputes it exactly, as before;
 * - because the trigger no longer covers that transition, nothing else may make it: a checkout
 *   becomes `submitted` only with its submission written (checkouts_guard_state), and when a
 *   submission commits, its lease is `submitted` and the task's `leased_count` equals its active
 *   leases (the deferred submissions_check_count, which already ran for `submission_count`). A caller
 *   that ends a lease by hand without the count fails at its commit instead of skewing the hint.
 */
export class SubmitCountsItsLease1764500000000 implements MigrationInterface {
  name = 'SubmitCountsItsLease1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(checkoutsGuardState(SUBMITTED_NEEDS_ITS_SUBMISSION));

    await q.query(`DROP TRIGGER tg_checkouts_count_update ON checkouts`);
    await q.query(`
      CREATE TRIGGER tg_checkouts_count_update AFTER UPDATE OF state, expires_at ON checkouts
        FOR EACH ROW WHEN (OLD.state = 'active' AND NEW.state <> 'submitted'
                           AND (NEW.state <> 'active' OR NEW.expires_at <> OLD.expires_at))
        EXECUTE FUNCTION checkouts_count_change()`);

    await q.query(`
      CREATE OR REPLACE FUNCTION submissions_check_count() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        target uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.task_id ELSE NEW.task_id END;
        task record;
      BEGIN
        SELECT t.submission_count, t.leased_count INTO task FROM tasks t WHERE t.id = target;
        IF task.submission_count <> (SELECT count(*) FROM submissions s WHERE s.task_id = target) THEN
          RAISE EXCEPTION 'task %: submission_count does not match its submissions', target USING ERRCODE = 'CB007';
        END IF;
        IF TG_OP = 'INSERT' THEN
          IF task.leased_count <> (SELECT count(*) FROM checkouts c WHERE c.task_id = target AND c.state = 'active') THEN
            RAISE EXCEPTION 'task %: leased_count does not match its active checkouts', target USING ERRCODE = 'CB007';
          END IF;
          IF (SELECT c.state FROM checkouts c WHERE c.id = NEW.checkout_id) IS DISTINCT FROM 'submitted' THEN
            RAISE EXCEPTION 'submission %: its checkout did not end as submitted', NEW.id USING ERRCODE = 'CB007';
          END IF;
        END IF;
        RETURN NULL;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION submissions_check_count() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        target uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.task_id ELSE NEW.task_id END;
      BEGIN
        IF (SELECT t.submission_count FROM tasks t WHERE t.id = target)
           <> (SELECT count(*) FROM submissions s WHERE s.task_id = target) THEN
          RAISE EXCEPTION 'task %: submission_count does not match its submissions', target USING ERRCODE = 'CB007';
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`DROP TRIGGER tg_checkouts_count_update ON checkouts`);
    await q.query(`
      CREATE TRIGGER tg_checkouts_count_update AFTER UPDATE OF state, expires_at ON checkouts
        FOR EACH ROW WHEN (OLD.state = 'active' AND (NEW.state <> 'active' OR NEW.expires_at <> OLD.expires_at))
        EXECUTE FUNCTION checkouts_count_change()`);
    await q.query(checkoutsGuardState(''));
  }
}
