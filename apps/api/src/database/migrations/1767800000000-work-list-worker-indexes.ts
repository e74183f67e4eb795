import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The two reads each worker's work list adds beside the shared snapshot (docs/decisions.md, "The work list
 * is kept 2 s per worker"; work/work-summary.service.ts WORKER_PART_SQL): the accounts that blocked a
 * worker, read by worker (the unique (account, worker) pair leads with the account, so that read walked
 * the whole table), and the projects archived since the snapshot was taken (only archived projects are
 * in it, so an ordinary project write never touches it). Built CONCURRENTLY; a failed build leaves an
 * invalid index, so each step drops it first.
 */
export class WorkListWorkerIndexes1767800000000 implements MigrationInterface {
  name = 'WorkListWorkerIndexes1767800000000';
  transaction = false as const;

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ix_worker_blocks_worker`);
    await q.query(`CREATE INDEX CONCURRENTLY ix_worker_blocks_worker ON worker_blocks (worker_id, account_id)`);
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ix_projects_archived`);
    await q.query(`CREATE INDEX CONCURRENTLY ix_projects_archived ON projects (archived_at) WHERE archived_at IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ix_projects_archived`);
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ix_worker_blocks_worker`);
  }
}
