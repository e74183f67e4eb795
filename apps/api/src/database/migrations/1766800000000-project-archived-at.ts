import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When the requester archived the project (docs/decisions.md, "Archiving a project"); null while it is
 * in use. Nullable with no default: a change of the catalogue only, no rewrite of the table.
 */
export class ProjectArchivedAt1766800000000 implements MigrationInterface {
  name = 'ProjectArchivedAt1766800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE projects ADD COLUMN archived_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE projects DROP COLUMN archived_at`);
  }
}
