import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each task counts the problem reports on its leases (`problem_reports`), so the console's
 * "Reported by workers" list reads a partial index of the reported tasks (next migration) instead of
 * walking every task of the project newest first and probing its leases, and the progress counts them
 * in the scan it already makes. A trigger keeps the count, whatever statement sets or clears a lease's
 * report or deletes a reported lease; only the release sets one (work/checkouts.service.ts), which has
 * already locked the lease and then the task, the order of every lease writer. The trigger is created
 * before the backfill, both in this transaction: a report committed meanwhile is either counted by the
 * backfill or waits for the trigger. A column with a constant default is added without a rewrite; the
 * check is NOT VALID, since every existing row holds the default, which passes it.
 */
export class TaskProblemReports1766400000000 implements MigrationInterface {
  name = 'TaskProblemReports1766400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tasks ADD COLUMN problem_reports integer NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE tasks ADD CONSTRAINT ck_tasks_problem_reports CHECK (problem_reports >= 0) NOT VALID`);
    await q.query(`
      CREATE FUNCTION checkouts_count_problem() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        change integer := CASE WHEN TG_OP = 'UPDATE' AND NEW.problem IS NOT NULL THEN 1 ELSE 0 END
                        - CASE WHEN OLD.problem IS NOT NULL THEN 1 ELSE 0 END;
      BEGIN
        UPDATE tasks SET problem_reports = problem_reports + change WHERE id = OLD.task_id;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER tg_checkouts_count_problem AFTER UPDATE OF problem ON checkouts
        FOR EACH ROW WHEN ((NEW.problem IS NULL) <> (OLD.problem IS NULL)) EXECUTE FUNCTION checkouts_count_problem()`);
    await q.query(`
      CREATE TRIGGER tg_checkouts_count_problem_delete AFTER DELETE ON checkouts
        FOR EACH ROW WHEN (OLD.problem IS NOT NULL) EXECUTE FUNCTION checkouts_count_problem()`);
    await q.query(`
      UPDATE tasks t SET problem_reports = r.reports
        FROM (SELECT task_id, count(*)::int AS reports FROM checkouts WHERE problem IS NOT NULL GROUP BY task_id) r
       WHERE t.id = r.task_id`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER tg_checkouts_count_problem_delete ON checkouts`);
    await q.query(`DROP TRIGGER tg_checkouts_count_problem ON checkouts`);
    await q.query(`DROP FUNCTION checkouts_count_problem()`);
    await q.query(`ALTER TABLE tasks DROP CONSTRAINT ck_tasks_problem_reports, DROP COLUMN problem_reports`);
  }
}
