import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Labels a PATCH took out of a project. Submissions keep the labels they were drawn with, so a COCO
 * export still needs a category for them: they follow the current labels' categories instead of
 * pointing at a category_id the file lacks (docs/decisions.md, "Removed labels stay COCO categories").
 */
export class ProjectRetiredLabels1765400000000 implements MigrationInterface {
  name = 'ProjectRetiredLabels1765400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE projects ADD COLUMN retired_labels text[] NOT NULL DEFAULT '{}'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE projects DROP COLUMN retired_labels`);
  }
}
