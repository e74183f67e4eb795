import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * submissions_check_count, the deferred check every submission runs at its commit, asks its three
 * questions in one query instead of four.
 *
 * The checks are those of migration 1764500000000: the task's `submission_count` equals its
 * submissions, and, for an insert, its `leased_count` equals its active checkouts and the submission's
 * checkout ended as `submitted`. Each query of a plpgsql function is a separate executor start, snapshot
 * and portal; in a CPU profile of the checkout benchmark this trigger was about 6 % of PostgreSQL's time,
 * most of it that fixed cost paid four times. One query with three subqueries reads the same rows,
 * under one snapshot. A task deleted with its submissions has no row: nothing is checked, as before.
 */
export class CountCheckInOneQuery1764800000000 implements MigrationInterface {
  name = 'CountCheckInOneQuery1764800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION submissions_check_count() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        inserted boolean := TG_OP = 'INSERT';
        target uuid := CASE WHEN inserted THEN NEW.task_id ELSE OLD.task_id END;
        checked record;
      BEGIN
        SELECT t.submission_count = (SELECT count(*) FROM submissions s WHERE s.task_id = target) AS submissions_match,
               NOT inserted OR t.leased_count = (SELECT count(*) FROM checkouts c WHERE c.task_id = target AND c.state = 'active') AS leases_match,
               NOT inserted OR (SELECT c.state FROM checkouts c WHERE c.id = NEW.checkout_id) IS NOT DISTINCT FROM 'submitted' AS lease_submitted
          INTO checked
          FROM tasks t WHERE t.id = target;
        IF NOT checked.submissions_match THEN
          RAISE EXCEPTION 'task %: submission_count does not match its submissions', target USING ERRCODE = 'CB007';
        END IF;
        IF NOT checked.leases_match THEN
          RAISE EXCEPTION 'task %: leased_count does not match its active checkouts', target USING ERRCODE = 'CB007';
        END IF;
        IF NOT checked.lease_submitted THEN
          RAISE EXCEPTION 'submission %: its checkout did not end as submitted', NEW.id USING ERRCODE = 'CB007';
        END IF;
        RETURN NULL;
      END $$`);
  }

  /** The function as migration 1764500000000 left it. */
  async down(q: QueryRunner): Promise<void> {
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
}
