import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A worker holds at most one live lease per project, whatever the timing.
 *
 * The lease query (work/checkouts.service.ts) skips a worker who already holds a lease in the project,
 * but it checks in its own statement's snapshot: two checkouts from one worker at the same instant (two
 * tabs, a double click, a retried request) each saw no lease and each got a task. The insert guard now
 * serialises one worker's leases in one project on a transaction-scoped advisory lock and, holding it,
 * looks again in a fresh snapshot (a plpgsql statement in READ COMMITTED sees what committed before it
 * started): a live lease there refuses the insert with CB008, and the service answers the lease held.
 *
 * The lock is taken after the task row's, as it is the only lock taken after it; a lease that waits for
 * it holds only its candidate task, which every other lease query skips (SKIP LOCKED). The key is 64-bit
 * (hashtextextended), as Idempotency-Key's is; its `lease:` prefix keeps it apart from those keys, which
 * start with an account id.
 */
export class OneLeasePerWorker1765600000000 implements MigrationInterface {
  name = 'OneLeasePerWorker1765600000000';

  async up(q: QueryRunner): Promise<void> {
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
         RETURNING project_id, submission_count, required_submissions, completed_at, cancelled_at INTO task;
        IF task.completed_at IS NOT NULL OR task.cancelled_at IS NOT NULL THEN
          RAISE EXCEPTION 'task % is complete or cancelled', NEW.task_id USING ERRCODE = 'CB001';
        END IF;
        SELECT count(*) INTO held FROM checkouts
          WHERE task_id = NEW.task_id AND state = 'active' AND expires_at > now();
        IF task.submission_count + held >= task.required_submissions THEN
          RAISE EXCEPTION 'task % has no free slot', NEW.task_id USING ERRCODE = 'CB002';
        END IF;
        PERFORM pg_advisory_xact_lock(hashtextextended('lease:' || NEW.worker_id::text || ':' || task.project_id::text, 0));
        IF EXISTS (SELECT 1 FROM checkouts h JOIN tasks ht ON ht.id = h.task_id
                    WHERE h.worker_id = NEW.worker_id AND h.state = 'active' AND h.expires_at > now()
                      AND ht.project_id = task.project_id AND ht.completed_at IS NULL) THEN
          RAISE EXCEPTION 'worker % already holds a lease in project %', NEW.worker_id, task.project_id USING ERRCODE = 'CB008';
        END IF;
        RETURN NEW;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
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
  }
}
