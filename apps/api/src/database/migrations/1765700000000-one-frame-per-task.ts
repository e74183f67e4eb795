import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One frame per task (docs/decisions.md): a task's consensus is computed in the pixels of the image size
 * its first submission reported, with the boxes of a submission that reported another size scaled into
 * it. So the inputs the completing submit reads (task_consensus_inputs, first made by 1764700000000)
 * now carry each submission's image size, in the shape of submissions/task-results.ts consensusInputJson.
 *
 * Consensus stored before this, for a task whose submissions reported different sizes, mixed two frames:
 * it is dropped, so the next reader computes it again (stored-consensus.ts) in the task's frame. Every
 * other stored consensus is unchanged by the rule (one size: nothing is scaled), so it stays.
 */
export class OneFramePerTask1765700000000 implements MigrationInterface {
  name = 'OneFramePerTask1765700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(inputsFunction('json_build_array(s.worker_id, s.boxes, s.image_width, s.image_height)'));
    await q.query(`
      UPDATE tasks t SET consensus = NULL, consensus_iou_threshold = NULL
        FROM (SELECT task_id FROM submissions GROUP BY task_id
               HAVING min(image_width) <> max(image_width) OR min(image_height) <> max(image_height)) mixed
       WHERE t.id = mixed.task_id AND t.consensus IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    // A consensus computed in a frame is still a consensus; readers of the older code simply use it.
    await q.query(inputsFunction('json_build_array(s.worker_id, s.boxes)'));
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
