import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The consensus of a complete task (API.md §5), computed once by the submission that completes it, in
 * the same transaction, and stored with the IoU threshold it was computed with. The results endpoints
 * use it while that threshold is still the project's; otherwise (a task completed before this
 * migration, or a project whose threshold changed since) they compute it again from the submissions
 * and store the new one (apps/api/src/submissions/stored-consensus.ts, docs/decisions.md).
 * `json`, not `jsonb`: the column holds the exact text of the answer's `annotations` (jsonb would
 * reorder the keys of every box), so the export can send it as is.
 * No backfill: rows left NULL here are computed on their first read.
 */
export class StoredConsensus1764200000000 implements MigrationInterface {
  name = 'StoredConsensus1764200000000';

  async up(q: QueryRunner): Promise<void> {
    // Nullable columns without a default: a catalog change, no table rewrite.
    await q.query(`ALTER TABLE tasks ADD COLUMN consensus json, ADD COLUMN consensus_iou_threshold real`);
    // NOT VALID, then VALIDATE, meant to scan under a lock that lets reads and writes go on. It does not:
    // in this one transaction the ADD COLUMN's ACCESS EXCLUSIVE lock is held through the scan. Harmless
    // when it ran (the first days, tasks small); a VALIDATE goes in a migration of its own
    // (database/__tests__/migration-locks.spec.ts holds the rules).
    await q.query(
      `ALTER TABLE tasks ADD CONSTRAINT ck_tasks_consensus
         CHECK (("consensus" IS NULL) = ("consensus_iou_threshold" IS NULL) AND ("consensus" IS NULL OR "completed_at" IS NOT NULL)) NOT VALID`,
    );
    await q.query(`ALTER TABLE tasks VALIDATE CONSTRAINT ck_tasks_consensus`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tasks DROP CONSTRAINT ck_tasks_consensus`);
    await q.query(`ALTER TABLE tasks DROP COLUMN consensus_iou_threshold, DROP COLUMN consensus`);
  }
}
