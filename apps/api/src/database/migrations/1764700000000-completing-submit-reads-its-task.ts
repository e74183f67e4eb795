import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The submissions of a task as the submission that completes it computes their consensus, read inside
 * its own statement with a fresh snapshot.
 *
 * The completing SUBMIT (work/submit.service.ts) waits for the task row whenever another submission of
 * the task is still in flight, which is most of the time when workers arrive together: in the checkout
 * benchmark about 3 completions in 4. A subquery of that statement reads with the snapshot taken when
 * the statement started, so it missed the submission that committed during the wait, and the submit
 * read the task's submissions again in a second statement. PostgreSQL gives each query of a VOLATILE
 * function a new snapshot, taken after the calling statement's own writes (docs: "Function Volatility
 * Categories": a VOLATILE function sees the changes of the command that calls it). Called after SUBMIT's
 * task update has its row lock, it sees every submission the completion counted, its own included.
 *
 * plpgsql, not SQL: an SQL function may be inlined into the caller, and then reads with its snapshot.
 * The JSON has the one shape and order of submissions/task-results.ts (consensusInputJson), so every
 * path computes the consensus from the same bytes.
 */
export class CompletingSubmitReadsItsTask1764700000000 implements MigrationInterface {
  name = 'CompletingSubmitReadsItsTask1764700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION task_consensus_inputs(target uuid) RETURNS json LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        inputs json;
      BEGIN
        SELECT json_agg(json_build_array(s.worker_id, s.boxes) ORDER BY s.created_at, s.id) INTO inputs
          FROM submissions s WHERE s.task_id = target;
        RETURN coalesce(inputs, '[]'::json);
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION task_consensus_inputs(uuid)`);
  }
}
