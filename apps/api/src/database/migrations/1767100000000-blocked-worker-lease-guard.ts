import type { MigrationInterface, QueryRunner } from 'typeorm';
import { OneLeasePerWorker1765600000000 } from './1765600000000-one-lease-per-worker';

/**
 * No lease for a blocked worker, whatever the timing (docs/decisions.md, "Blocking a worker").
 *
 * The lease query probes `worker_blocks` in its own statement's snapshot, and a block ends the worker's
 * active leases in its transaction: a checkout whose statement began before the block committed, and
 * whose lease committed after the block's update read the leases, kept its lease. Both now meet on one
 * transaction-scoped advisory lock per worker and account (`worker_block_key`): the insert guard takes it
 * shared and, holding it, looks for a block in a fresh snapshot (CB009 when there is one); the block takes
 * it exclusive before it writes. A lease that got the lock first commits before the block reads the leases
 * and is ended by it; one that waited sees the block.
 *
 * The shared lock is taken last, after the task row's and the worker's lease lock
 * (1765600000000); the block takes it before any lease or task row, and the leases it then locks are
 * committed ones, never the uncommitted lease of a waiting insert, so the two cannot wait on each other.
 */
export class BlockedWorkerLeaseGuard1767100000000 implements MigrationInterface {
  name = 'BlockedWorkerLeaseGuard1767100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION worker_block_key(worker uuid, account uuid) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
        SELECT hashtextextended('block:' || worker::text || ':' || account::text, 0)
      $$`);
    await q.query(`
      CREATE OR REPLACE FUNCTION checkouts_guard_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        task record;
        held integer;
        account uuid;
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
        SELECT p.account_id INTO account FROM projects p WHERE p.id = task.project_id;
        PERFORM pg_advisory_xact_lock_shared(worker_block_key(NEW.worker_id, account));
        IF EXISTS (SELECT 1 FROM worker_blocks wb WHERE wb.account_id = account AND wb.worker_id = NEW.worker_id) THEN
          RAISE EXCEPTION 'worker % is blocked by account %', NEW.worker_id, account USING ERRCODE = 'CB009';
        END IF;
        RETURN NEW;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await new OneLeasePerWorker1765600000000().up(q);
    await q.query(`DROP FUNCTION worker_block_key(uuid, uuid)`);
  }
}
