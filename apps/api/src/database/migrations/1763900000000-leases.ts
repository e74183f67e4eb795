import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Leases and submissions as the database enforces them (DESIGN.md §2), whatever the caller does:
 *
 * - A task's free slots are computed, never stored: `required_submissions - submission_count - active,
 *   unexpired checkouts`. A stored counter of active leases (the core schema's `active_checkout_count`)
 *   would hold a lease past its `expires_at` until some job decremented it; a computed count frees the
 *   slot the moment the lease expires, whether or not the expiry job has run.
 * - BEFORE INSERT on checkouts locks the task row, refuses a closed task (SQLSTATE CB001) and a task with
 *   no free slot (CB002). Two transactions leasing one task serialise on that row lock.
 * - A checkout only ever leaves `active` (CB004), so a slot cannot be taken back by a stray UPDATE.
 * - BEFORE INSERT on submissions requires the submission's own checkout to be active and unexpired, for
 *   the same task and worker, on an open task (CB005, CB006).
 * - `submission_count` equals the number of submission rows (deferred check at commit, CB007), never
 *   exceeds `required_submissions`, and `completed_at` is set exactly when it reaches it.
 *
 * The SQLSTATEs are mapped to API errors in apps/api/src/work/lease-errors.ts.
 */
export class Leases1763900000000 implements MigrationInterface {
  name = 'Leases1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tasks DROP CONSTRAINT ck_tasks_slots`);
    await q.query(`ALTER TABLE tasks DROP COLUMN active_checkout_count`);
    await q.query(
      `ALTER TABLE tasks ADD CONSTRAINT ck_tasks_submission_count CHECK ("submission_count" BETWEEN 0 AND "required_submissions")`,
    );
    await q.query(
      `ALTER TABLE tasks ADD CONSTRAINT ck_tasks_completed CHECK (("completed_at" IS NOT NULL) = ("submission_count" = "required_submissions"))`,
    );
    await q.query(`ALTER TABLE tasks ADD CONSTRAINT ck_tasks_closed_once CHECK ("completed_at" IS NULL OR "cancelled_at" IS NULL)`);
    // The queue a checkout scans: open tasks of a project, oldest first.
    await q.query(
      `CREATE INDEX ix_tasks_open ON tasks (project_id, created_at, id) WHERE completed_at IS NULL AND cancelled_at IS NULL`,
    );
    await q.query(`ALTER TABLE submissions ADD request_hash text NOT NULL`);

    await q.query(`
      CREATE FUNCTION checkouts_guard_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        task record;
        held integer;
      BEGIN
        SELECT submission_count, required_submissions, completed_at, cancelled_at INTO task
          FROM tasks WHERE id = NEW.task_id FOR UPDATE;
        IF task.completed_at IS NOT NULL OR task.cancelled_at IS NOT NULL THEN
          RAISE EXCEPTION 'task % is complete or cancelled', NEW.task_id USING ERRCODE = 'CB001';
        END IF;
        IF NEW.state <> 'active' THEN
          RAISE EXCEPTION 'a checkout starts active' USING ERRCODE = 'CB004';
        END IF;
        SELECT count(*) INTO held FROM checkouts
          WHERE task_id = NEW.task_id AND state = 'active' AND expires_at > now();
        IF task.submission_count + held >= task.required_submissions THEN
          RAISE EXCEPTION 'task % has no free slot', NEW.task_id USING ERRCODE = 'CB002';
        END IF;
        RETURN NEW;
      END $$`);
    await q.query(`
      CREATE TRIGGER tg_checkouts_guard_insert BEFORE INSERT ON checkouts
        FOR EACH ROW EXECUTE FUNCTION checkouts_guard_insert()`);

    await q.query(`
      CREATE FUNCTION checkouts_guard_state() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.state <> OLD.state AND OLD.state <> 'active' THEN
          RAISE EXCEPTION 'checkout % is already %', OLD.id, OLD.state USING ERRCODE = 'CB004';
        END IF;
        IF NEW.task_id <> OLD.task_id OR NEW.worker_id <> OLD.worker_id THEN
          RAISE EXCEPTION 'a checkout never changes task or worker' USING ERRCODE = 'CB004';
        END IF;
        RETURN NEW;
      END $$`);
    await q.query(`
      CREATE TRIGGER tg_checkouts_guard_state BEFORE UPDATE ON checkouts
        FOR EACH ROW EXECUTE FUNCTION checkouts_guard_state()`);

    await q.query(`
      CREATE FUNCTION submissions_guard_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        lease record;
        task record;
      BEGIN
        SELECT task_id, worker_id, state, expires_at INTO lease FROM checkouts WHERE id = NEW.checkout_id FOR UPDATE;
        IF NOT FOUND OR lease.task_id <> NEW.task_id OR lease.worker_id <> NEW.worker_id THEN
          RAISE EXCEPTION 'submission does not match its checkout' USING ERRCODE = 'CB005';
        END IF;
        IF lease.state <> 'active' OR lease.expires_at <= now() THEN
          RAISE EXCEPTION 'checkout % is not active', NEW.checkout_id USING ERRCODE = 'CB006';
        END IF;
        SELECT completed_at, cancelled_at INTO task FROM tasks WHERE id = NEW.task_id;
        IF task.completed_at IS NOT NULL OR task.cancelled_at IS NOT NULL THEN
          RAISE EXCEPTION 'task % is complete or cancelled', NEW.task_id USING ERRCODE = 'CB001';
        END IF;
        RETURN NEW;
      END $$`);
    await q.query(`
      CREATE TRIGGER tg_submissions_guard_insert BEFORE INSERT ON submissions
        FOR EACH ROW EXECUTE FUNCTION submissions_guard_insert()`);

    await q.query(`
      CREATE FUNCTION submissions_check_count() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        target uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.task_id ELSE NEW.task_id END;
      BEGIN
        IF (SELECT t.submission_count FROM tasks t WHERE t.id = target)
           <> (SELECT count(*) FROM submissions s WHERE s.task_id = target) THEN
          RAISE EXCEPTION 'task %: submission_count does not match its submissions', target USING ERRCODE = 'CB007';
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE CONSTRAINT TRIGGER tg_submissions_check_count AFTER INSERT OR DELETE ON submissions
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION submissions_check_count()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER tg_submissions_check_count ON submissions`);
    await q.query(`DROP FUNCTION submissions_check_count()`);
    await q.query(`DROP TRIGGER tg_submissions_guard_insert ON submissions`);
    await q.query(`DROP FUNCTION submissions_guard_insert()`);
    await q.query(`DROP TRIGGER tg_checkouts_guard_state ON checkouts`);
    await q.query(`DROP FUNCTION checkouts_guard_state()`);
    await q.query(`DROP TRIGGER tg_checkouts_guard_insert ON checkouts`);
    await q.query(`DROP FUNCTION checkouts_guard_insert()`);
    await q.query(`ALTER TABLE submissions DROP COLUMN request_hash`);
    await q.query(`DROP INDEX ix_tasks_open`);
    await q.query(`ALTER TABLE tasks DROP CONSTRAINT ck_tasks_closed_once`);
    await q.query(`ALTER TABLE tasks DROP CONSTRAINT ck_tasks_completed`);
    await q.query(`ALTER TABLE tasks DROP CONSTRAINT ck_tasks_submission_count`);
    await q.query(`ALTER TABLE tasks ADD active_checkout_count integer NOT NULL DEFAULT 0`);
    await q.query(
      `ALTER TABLE tasks ADD CONSTRAINT ck_tasks_slots CHECK ("submission_count" >= 0 AND "active_checkout_count" >= 0 AND "submission_count" + "active_checkout_count" <= "required_submissions")`,
    );
  }
}
