import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A hint that lets the lease query step over full tasks without counting their leases.
 *
 * The next-task query walks a project's open tasks oldest first. Every task whose slots are all leased
 * costs it two index probes on checkouts (the live leases, and "has this worker leased it"), and with W
 * workers on a project about W / required_submissions tasks at the head of the queue are full: 60 per
 * checkout with 200 workers, 600 with 2,000. The counted leases stay the truth (a lease frees its slot
 * the moment it expires, whether or not the expiry job ran: migration 1763900000000); these columns only
 * say when counting can be skipped:
 *
 * - `leased_count`: checkouts of the task in state `active`, expired or not;
 * - `lease_expiry_min`: the earliest `expires_at` among them (NULL when none).
 *
 * A task can have a free slot only if `submission_count + leased_count < required_submissions` or one
 * of its active leases has expired (`lease_expiry_min <= now()`); otherwise the lease query skips it on
 * the task row alone. Triggers keep both columns exact on every path (lease, submit, release, expiry,
 * cancel, delete, a changed `expires_at`), whatever the caller does.
 */
export class LeaseCountHint1764300000000 implements MigrationInterface {
  name = 'LeaseCountHint1764300000000';

  async up(q: QueryRunner): Promise<void> {
    // A constant default and a nullable column: catalog changes, no table rewrite.
    await q.query(`ALTER TABLE tasks ADD COLUMN leased_count integer NOT NULL DEFAULT 0, ADD COLUMN lease_expiry_min timestamptz`);
    await q.query(`ALTER TABLE tasks ADD CONSTRAINT ck_tasks_leased_count CHECK ("leased_count" >= 0) NOT VALID`);
    await q.query(`ALTER TABLE tasks VALIDATE CONSTRAINT ck_tasks_leased_count`);
    // Active leases are few (ix_checkouts_active_task holds only them).
    await q.query(`
      UPDATE tasks t SET leased_count = a.n, lease_expiry_min = a.earliest
        FROM (SELECT task_id, count(*) AS n, min(expires_at) AS earliest FROM checkouts WHERE state = 'active' GROUP BY task_id) a
       WHERE t.id = a.task_id`);

    // The insert guard of migration 1763900000000, counting the new lease in the same row update that
    // locks the task (an UPDATE takes the row lock SELECT ... FOR UPDATE took). A refused insert rolls
    // the count back with its statement.
    await q.query(`
      CREATE OR REPLACE FUNCTION checkouts_guard_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        task record;
        held integer;
      BEGIN
        IF NEW.state <> 'active' THEN
          RAISE EXCEPTION 'a checkout starts active' USING ERRCODE = 'CB004';
        END IF;
        UPDATE tasks SET leased_count = leased_count + 1, lease_expiry_min = LEAST(lease_expiry_min, NEW.expires_at)
         WHERE id = NEW.task_id
         RETURNING submission_count, required_submissions, completed_at, cancelled_at INTO task;
        IF task.completed_at IS NOT NULL OR task.cancelled_at IS NOT NULL THEN
          RAISE EXCEPTION 'task % is complete or cancelled', NEW.task_id USING ERRCODE = 'CB001';
        END IF;
        SELECT count(*) INTO held FROM checkouts
          WHERE task_id = NEW.task_id AND state = 'active' AND expires_at > now();
        IF task.submission_count + held >= task.required_submissions THEN
          RAISE EXCEPTION 'task % has no free slot', NEW.task_id USING ERRCODE = 'CB002';
        END IF;
        RETURN NEW;
      END $$`);

    // A lease leaving `active` (submitted, released, expired, cancelled), deleted while active, or given
    // another `expires_at` while active. AFTER row triggers run when their statement has finished, so the
    // submit's one statement that ends the lease and updates the task (work/submit.service.ts) has
    // updated the row before this touches it.
    await q.query(`
      CREATE FUNCTION checkouts_count_change() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        ended integer := CASE WHEN TG_OP = 'DELETE' OR NEW.state <> 'active' THEN 1 ELSE 0 END;
      BEGIN
        UPDATE tasks SET leased_count = leased_count - ended,
               lease_expiry_min = (SELECT min(c.expires_at) FROM checkouts c WHERE c.task_id = OLD.task_id AND c.state = 'active')
         WHERE id = OLD.task_id;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER tg_checkouts_count_update AFTER UPDATE OF state, expires_at ON checkouts
        FOR EACH ROW WHEN (OLD.state = 'active' AND (NEW.state <> 'active' OR NEW.expires_at <> OLD.expires_at))
        EXECUTE FUNCTION checkouts_count_change()`);
    await q.query(`
      CREATE TRIGGER tg_checkouts_count_delete AFTER DELETE ON checkouts
        FOR EACH ROW WHEN (OLD.state = 'active') EXECUTE FUNCTION checkouts_count_change()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER tg_checkouts_count_delete ON checkouts`);
    await q.query(`DROP TRIGGER tg_checkouts_count_update ON checkouts`);
    await q.query(`DROP FUNCTION checkouts_count_change()`);
    await q.query(`
      CREATE OR REPLACE FUNCTION checkouts_guard_insert() RETURNS trigger LANGUAGE plpgsql AS $$
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
    await q.query(`ALTER TABLE tasks DROP CONSTRAINT ck_tasks_leased_count`);
    await q.query(`ALTER TABLE tasks DROP COLUMN lease_expiry_min, DROP COLUMN leased_count`);
  }
}
