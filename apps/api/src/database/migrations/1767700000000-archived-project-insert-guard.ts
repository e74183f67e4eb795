import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * No open task in an archived project, whatever the timing (docs/decisions.md, "Archiving a project").
 *
 * add_task checks the project's `archived_at` in the process (a cached copy) before it inserts, and an
 * archive cancels the outstanding tasks with one UPDATE, which does not see a task whose insert commits
 * after that UPDATE began: a batch in flight while its project was archived left open tasks in it, never
 * offered to workers but counted as outstanding and committed money, and offered again after an unarchive.
 *
 * Each INSERT into tasks now takes, for every project it wrote to, two transaction-scoped advisory locks,
 * shared: its project's (`project_archive_key`) and its account's (`account_archive_key`). An archive
 * takes its project's exclusive before it writes; an account's deletion, which archives every project,
 * takes the account's once (one lock, however many projects: a lock per project could fill PostgreSQL's
 * shared lock table for an account with thousands). The insert only tries (`pg_try_…`): a lock held or
 * queued for by an archive refuses the insert at once (CB010, the project's id its DETAIL: the add_task
 * 422), so an insert never waits for an archive's cancel, which can take minutes and would hold a pooled
 * connection all that while. An insert that got its locks first makes the archive wait until it commits,
 * and is cancelled by it (a heavyweight lock queues new shared requests behind the waiting archive, so it
 * is never starved by a steady stream). Holding the locks, the insert looks at `archived_at` in a fresh
 * snapshot, for an archive that committed before it: set, CB010 too.
 *
 * The fresh snapshot is READ COMMITTED's (each statement of a VOLATILE function takes one); under
 * REPEATABLE READ the last look would read the transaction's snapshot and could miss a committed archive.
 * Every insert of tasks runs READ COMMITTED (tasks.service.ts).
 */
export class ArchivedProjectInsertGuard1767700000000 implements MigrationInterface {
  name = 'ArchivedProjectInsertGuard1767700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION project_archive_key(project uuid) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
        SELECT hashtextextended('archive:' || project::text, 0)
      $$`);
    await q.query(`
      CREATE FUNCTION account_archive_key(account uuid) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
        SELECT hashtextextended('archive-account:' || account::text, 0)
      $$`);
    await q.query(`
      CREATE FUNCTION tasks_guard_archived_project() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        written record;
        archived uuid;
      BEGIN
        FOR written IN
          SELECT DISTINCT a.project_id, p.account_id FROM added_tasks a JOIN projects p ON p.id = a.project_id ORDER BY a.project_id
        LOOP
          IF NOT pg_try_advisory_xact_lock_shared(account_archive_key(written.account_id))
             OR NOT pg_try_advisory_xact_lock_shared(project_archive_key(written.project_id)) THEN
            RAISE EXCEPTION 'project % is being archived', written.project_id USING ERRCODE = 'CB010', DETAIL = written.project_id::text;
          END IF;
        END LOOP;
        SELECT p.id INTO archived FROM projects p
         WHERE p.id IN (SELECT project_id FROM added_tasks) AND p.archived_at IS NOT NULL
         LIMIT 1;
        IF archived IS NOT NULL THEN
          RAISE EXCEPTION 'project % is archived', archived USING ERRCODE = 'CB010', DETAIL = archived::text;
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER tasks_guard_archived_project AFTER INSERT ON tasks
        REFERENCING NEW TABLE AS added_tasks
        FOR EACH STATEMENT EXECUTE FUNCTION tasks_guard_archived_project()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER tasks_guard_archived_project ON tasks`);
    await q.query(`DROP FUNCTION tasks_guard_archived_project()`);
    await q.query(`DROP FUNCTION account_archive_key(uuid)`);
    await q.query(`DROP FUNCTION project_archive_key(uuid)`);
  }
}
