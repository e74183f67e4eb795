import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A project's cancelled tasks, newest first: the console's task list filtered to `cancelled` read them
 * by walking every task of the project newest first, a whole project's worth for the few tasks a
 * requester cancels one by one. Only cancelled rows are in it, so a completion or a lease never writes
 * it. (The other states need none: `incomplete` has ix_tasks_open, and for `complete` the planner reads
 * ix_tasks_project_completed when complete tasks are few, or walks the newest, which then are complete.)
 * Built CONCURRENTLY; a failed build leaves an invalid index, so the step drops it first.
 */
export class CancelledTasksIndex1766600000000 implements MigrationInterface {
  name = 'CancelledTasksIndex1766600000000';
  transaction = false as const;

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ix_tasks_cancelled`);
    await q.query(`CREATE INDEX CONCURRENTLY ix_tasks_cancelled ON tasks (project_id, created_at, id) WHERE cancelled_at IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ix_tasks_cancelled`);
  }
}
