import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One frame per task (docs/decisions.md): a task's consensus is computed in the pixels of the image size
 * its first submission reported, with the boxes of a submission that reported another size scaled into
 * it. So the inputs the completing submit reads (task_consensus_inputs, first made by 1764700000000)
 * now carry each submission's image size, in the shape of submissions/task-results.ts consensusInputJson.
 *
 * A stored consensus now says which rule computed it (`consensus_rule`): every one stored before this
 * reads 1, and only one of the current rule (2, CONSENSUS_RULE) is used, so readers compute the others
 * again once, in the task's frame, and store them back. Dropping only the consensus of tasks whose
 * submissions reported different sizes would not do: while a deploy rolls, processes of the older code
 * keep computing such a consensus unscaled and storing it, and nothing would tell it from a good one.
 * Adding a column with a constant default rewrites nothing (PostgreSQL 11+), so this takes no time on a
 * large table, and an older task's first read after the deploy costs what a task completed before stored
 * consensus did (stored-consensus.ts).
 *
 * The older code leaves the column as it finds it. It stores a consensus when the project's threshold
 * differs from the stored one, so after a threshold change it could write its unscaled consensus over a
 * row that says rule 2. A trigger takes the rule back to 1 on any write that changes the threshold and
 * not the rule; the new code's own write after a threshold change is then computed once more by the
 * next reader, which stores it with the same threshold (rule 1 to 2) and so keeps it.
 */
export class OneFramePerTask1765700000000 implements MigrationInterface {
  name = 'OneFramePerTask1765700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tasks ADD COLUMN consensus_rule smallint NOT NULL DEFAULT 1`);
    await q.query(inputsFunction('json_build_array(s.worker_id, s.boxes, s.image_width, s.image_height)'));
    await q.query(`
      CREATE FUNCTION tasks_consensus_rule_reset() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.consensus_rule := 1;
        RETURN NEW;
      END $$`);
    // WHEN is checked without calling the function, so the submits that name the column pay nothing more.
    await q.query(`
      CREATE TRIGGER tasks_consensus_rule_reset BEFORE UPDATE OF consensus ON tasks FOR EACH ROW
        WHEN (NEW.consensus_rule = OLD.consensus_rule AND NEW.consensus_iou_threshold IS DISTINCT FROM OLD.consensus_iou_threshold)
        EXECUTE FUNCTION tasks_consensus_rule_reset()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER tasks_consensus_rule_reset ON tasks`);
    await q.query(`DROP FUNCTION tasks_consensus_rule_reset()`);
    await q.query(inputsFunction('json_build_array(s.worker_id, s.boxes)'));
    await q.query(`ALTER TABLE tasks DROP COLUMN consensus_rule`);
  }
}

/** task_consensus_inputs with each submission as `element` (see 1764700000000 for why plpgsql and VOLATILE). */
function inputsFunction(element: string): string {
  return `
    CREATE OR REPLACE FUNCTION task_consensus_inputs(target uuid) RETURNS json LANGUAGE plpgsql VOLATILE AS $$
    DECLARE
      inputs json;
    BEGIN
      SELECT json_agg(${element} ORDER BY s.created_at, s.id) INTO inputs
        FROM submissions s WHERE s.task_id = target;
      RETURN coalesce(inputs, '[]'::json);
    END $$`;
}
