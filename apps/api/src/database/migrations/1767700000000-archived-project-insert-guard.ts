import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * No open task in an archived project, whatever the timing (docs/decisions.md, "Archiving a project").
 *
 * add_task checks the project's `archived_at` in the process (a cached copy) before it inserts, and an
 * archive cancels the outstanding tasks with one UPDATE, which does not see a task whose insert commits
 * after that UPDATE began: a batch in flight while its project was archived left open tasks in it, never
 * offered to workers but counted as outstanding and committed money, and offered again after an unarchive.
 * Both now meet on one transaction-scoped advisory lock per project (`project_archive_key`): each INSERT
 * into tasks takes it shared, per project it wrote to, and holding it looks at `archived_at` in a fresh
 * snapshot (CB010, the project's id its DETAIL, when set: the insert is undone); the archive takes it exclusive before it writes. An
 * insert that got the lock first commits before the archive's cancel reads the tasks, and is cancelled by
 * it; one that waited sees the project archived.
 *
 * A heavyweight lock, not the project row's: a waiting archive holds back new shared lockers, where a row
 * lock lets each new insert's KEY SHARE go first and the archive could wait for a gap in the stream. The
 * trigger runs once per statement (a batch of 1,000 tasks takes one lock per project, in project order,
 * as account deletion's archives take theirs, so two never wait on each other in a cycle).
 */
export class ArchivedProjectInsertGuard1767700000000 implements MigrationInterface {
  name = 'ArchivedProjectInsertGuard1767700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION project_archive_key(project uuid) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
        SELECT hashtextextended('archive:' || project::text, 0)
      $$`);
    // VOLATILE (the default), so each statement below reads a snapshot taken after the lock is held.
    await q.query(`
      CREATE FUNCTION tasks_guard_archived_project() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        archived uuid;
      BEGIN
        PERFORM pg_advisory_xact_lock_shared(project_archive_key(project_id))
           FROM (SELECT DISTINCT project_id FROM added_tasks ORDER BY project_id) written;
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
    await q.query(`DROP FUNCTION project_archive_key(uuid)`);
  }
}
