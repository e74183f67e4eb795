import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A task's frame (the image size its first submission reported) stored on the task with its consensus
 * (submissions/stored-consensus.ts), so COCO's image entries no longer look up each task's first
 * submission (~1 s of PostgreSQL per 100,000 tasks). Tasks completed before this keep NULL, and readers
 * look it up for them as before; a consensus stored later for them (a threshold change) stores it too.
 * Adding nullable columns without a default rewrites nothing. The check is added NOT VALID: every
 * existing row holds NULLs, which pass it, so scanning the table under this lock would prove nothing;
 * new and updated rows are checked all the same.
 */
export class TaskFrame1765800000000 implements MigrationInterface {
  name = 'TaskFrame1765800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tasks ADD COLUMN frame_width integer, ADD COLUMN frame_height integer`);
    await q.query(`
      ALTER TABLE tasks ADD CONSTRAINT ck_tasks_frame
        CHECK ((frame_width IS NULL) = (frame_height IS NULL) AND (frame_width IS NULL OR completed_at IS NOT NULL)) NOT VALID`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tasks DROP CONSTRAINT ck_tasks_frame, DROP COLUMN frame_height, DROP COLUMN frame_width`);
  }
}
