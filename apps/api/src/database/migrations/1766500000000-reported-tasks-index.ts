import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A project's reported tasks, newest first (migration 1766400000000): the console's "Reported by
 * workers" list pages through this index alone, however many tasks the project has. Built
 * CONCURRENTLY, so add_task and the leases never wait for the build; a failed build leaves an invalid
 * index, so the step drops it first and can simply run again.
 */
export class ReportedTasksIndex1766500000000 implements MigrationInterface {
  name = 'ReportedTasksIndex1766500000000';
  transaction = false as const;

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ix_tasks_reported`);
    await q.query(`CREATE INDEX CONCURRENTLY ix_tasks_reported ON tasks (project_id, created_at, id) WHERE problem_reports > 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ix_tasks_reported`);
  }
}
