import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A project whose stored consensus may no longer hold is marked (`consensus_refresh_pending`), and the
 * jobs role's consensus refresh (submissions/consensus-refresh.ts) computes and stores its complete
 * tasks' consensus again in the background, so that the next export finds it stored instead of
 * computing every task on an HTTP process. A trigger marks the project whenever its IoU threshold
 * changes, by whatever statement. Every existing project starts marked: tasks stored by an older
 * consensus rule (CONSENSUS_RULE) are refreshed once; a migration that raises the rule marks them all
 * again the same way. A column with a constant default is added without rewriting the table.
 */
export class ConsensusRefresh1766100000000 implements MigrationInterface {
  name = 'ConsensusRefresh1766100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE projects ADD COLUMN consensus_refresh_pending boolean NOT NULL DEFAULT true`);
    await q.query(`ALTER TABLE projects ALTER COLUMN consensus_refresh_pending SET DEFAULT false`);
    await q.query(`CREATE INDEX ix_projects_consensus_refresh ON projects (id) WHERE consensus_refresh_pending`);
    await q.query(`
      CREATE FUNCTION projects_mark_consensus_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.consensus_refresh_pending := true;
        RETURN NEW;
      END $$`);
    await q.query(`
      CREATE TRIGGER tg_projects_consensus_refresh BEFORE UPDATE OF consensus_iou_threshold ON projects
        FOR EACH ROW WHEN (NEW.consensus_iou_threshold IS DISTINCT FROM OLD.consensus_iou_threshold)
        EXECUTE FUNCTION projects_mark_consensus_refresh()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER tg_projects_consensus_refresh ON projects`);
    await q.query(`DROP FUNCTION projects_mark_consensus_refresh()`);
    await q.query(`DROP INDEX ix_projects_consensus_refresh`);
    await q.query(`ALTER TABLE projects DROP COLUMN consensus_refresh_pending`);
  }
}
