import { DEFAULT_IOU_THRESHOLD, type ImageSize } from '@crowdbox/boxes';
import type { Annotation, ConsensusAnnotation } from '@crowdbox/contracts';
import { Logger } from '@nestjs/common';
import type { Pool, PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import { ASYNC_COMMIT } from '../database/async-commit';
import { pgPool, runPrepared, type PreparedStatement } from '../database/prepared-statement';
import { consensusOf, consensusOfInputs, frameOf, type ConsensusInput, type SubmissionRow } from './task-results';

/**
 * The stored consensus (migration 1764200000000-stored-consensus): the submission that completes a task
 * computes its consensus once, in the completing transaction, and stores the JSON text of the boxes
 * with the project's IoU threshold of that moment. Readers use the stored text only while that threshold
 * is the project's; otherwise (completed before the migration, or the threshold changed since) they
 * compute the consensus from the submissions as before and store it back, so that results are always
 * those of API.md §5 with the project's current threshold.
 */

const logger = new Logger('StoredConsensus');

/**
 * The version of the consensus rule this code computes, stored with each consensus (`consensus_rule`):
 * 2 since a task's boxes are put into one frame (migration 1765700000000); 3 since the merged box is
 * clamped to that frame (libs/boxes consensus.util.ts, rule 4: before, rounding could put an edge a
 * pixel past the image); 4 since a merged box keeps at least 1 px of width and height (scaled down into
 * a smaller frame, one came out 0 px wide) and the frame's own boxes are clamped to it like the boxes
 * scaled in (before, two boxes at an edge overlapped more or less depending on which submission came
 * first). Raise it with any change to what a stored consensus would hold: stored ones of another version
 * are then computed again.
 */
export const CONSENSUS_RULE = 4;

/**
 * A FROM item that marks its statement as a writer of the current rule: a transaction-local setting the
 * rule's reset trigger reads (migration 1767300000000), so storing the consensus of a new threshold over
 * one of this rule keeps the rule. Without it the trigger takes such a write for one of the code before
 * rules, which leaves the column as it finds it, and resets the rule to 1.
 */
const CURRENT_RULE_WRITE = `(SELECT set_config('crowdbox.consensus_rule', '${CONSENSUS_RULE}', true)) AS current_rule_write`;

/**
 * SQL: true when the task aliased `t` has a stored consensus computed with `threshold` (an SQL
 * expression of type real: a parameter `$n::real` or `p.consensus_iou_threshold`) by this rule. Both
 * sides are `real`, so the comparison is exact.
 */
export function storedConsensusHolds(threshold: string): string {
  return `(t.consensus IS NOT NULL AND t.consensus_iou_threshold = ${threshold} AND t.consensus_rule = ${CONSENSUS_RULE})`;
}

/**
 * SQL: the stored consensus of the task aliased `t` may be replaced by one computed with `threshold`
 * (see storeConsensus): exactly when it does not hold. ck_tasks_consensus keeps the threshold set
 * whenever the consensus is, so the negation is never NULL.
 */
function replaceable(threshold: string): string {
  return `NOT ${storedConsensusHolds(threshold)}`;
}

/** The text stored in `tasks.consensus`: exactly the `annotations` JSON of the answers. */
export function consensusText(boxes: ConsensusAnnotation[]): string {
  return JSON.stringify(boxes);
}

/** A consensus to store: the task, the text of its boxes and the frame they are in (null: no submission). */
export interface ConsensusToStore {
  id: string;
  text: string;
  frame: ImageSize | null;
}

/** The consensus of a complete task's submissions (ConsensusInput, oldest first), its stored text and its frame. */
export function computeConsensus(inputs: ConsensusInput[], threshold: number): { boxes: ConsensusAnnotation[]; text: string; frame: ImageSize | null } {
  const boxes = consensusOfInputs(inputs, threshold);
  const first = inputs[0];
  return { boxes, text: consensusText(boxes), frame: first ? { width: first[2], height: first[3] } : null };
}

/**
 * The stored text of a task of one submission, before the task is read: with k = 1 the rule keeps
 * every box and never compares two boxes (a cluster holds one box per worker), so the threshold does
 * not enter (tested in libs/boxes and in stored-consensus.e2e). The completing SUBMIT stores it with
 * the project's threshold.
 */
export function soloConsensusText(workerId: string, boxes: Annotation[], image: ImageSize): string {
  return computeConsensus([[workerId, boxes, image.width, image.height]], DEFAULT_IOU_THRESHOLD).text;
}

/**
 * The task's frame is stored with its consensus (migration 1765800000000-task-frame) for COCO's image
 * sizes. It is its first submission's image size, which no later write changes, so a stored one is kept.
 */
const STORE_FRAME = `frame_width = coalesce(t.frame_width, %w), frame_height = coalesce(t.frame_height, %h)`;

/** storeConsensus's statement for a batch: $1 task ids, $2 the threshold, $3 their consensus texts, $4 and $5 their frames. */
const STORE_CONSENSUS: PreparedStatement = {
  name: 'store_consensus',
  text: `
  UPDATE tasks t SET consensus = x.consensus::json, consensus_iou_threshold = $2::real, consensus_rule = ${CONSENSUS_RULE},
         ${STORE_FRAME.replace('%w', 'x.width').replace('%h', 'x.height')}
    FROM unnest($1::uuid[], $3::text[], $4::int[], $5::int[]) AS x(id, consensus, width, height), ${ASYNC_COMMIT}, ${CURRENT_RULE_WRITE}
   WHERE t.id = x.id AND t.completed_at IS NOT NULL AND ${replaceable('$2::real')}`,
};

/**
 * The same for one task: $1 its id, $2 the threshold, $3 its consensus text, $4 and $5 its frame. Every completing submit
 * runs this. The batch form is planned again on every call (PostgreSQL sizes unnest from the actual
 * arrays, so its generic plan never looks cheaper than a custom one: ~0.19 ms of planning per call,
 * measured with pg_stat_statements); this one is planned once per connection.
 */
const STORE_ONE_CONSENSUS: PreparedStatement = {
  name: 'store_one_consensus',
  text: `
  UPDATE tasks t SET consensus = $3::json, consensus_iou_threshold = $2::real, consensus_rule = ${CONSENSUS_RULE},
         ${STORE_FRAME.replace('%w', '$4::int').replace('%h', '$5::int')}
    FROM ${ASYNC_COMMIT}, ${CURRENT_RULE_WRITE}
   WHERE t.id = $1 AND t.completed_at IS NOT NULL AND ${replaceable('$2::real')}`,
};

/**
 * Stores consensus texts computed by a reader with `threshold` (for tasks whose stored one was missing,
 * computed with another threshold, or by an older rule). A cache fill: a failure is logged, never the reader's error,
 * since the reader already has the right answer. For the same reason it commits without waiting for
 * the disk (ASYNC_COMMIT): a crash that loses it leaves the consensus missing, which readers fill.
 * Concurrent writers store the same text for the same threshold, and a text stored with a threshold
 * the project no longer has is simply not used.
 */
export async function storeConsensus(pool: Pool | PoolClient, threshold: number, computed: ConsensusToStore[]): Promise<void> {
  if (computed.length === 0) return;
  try {
    if (computed.length === 1) {
      const [{ id, text, frame }] = computed;
      await runPrepared(pool, STORE_ONE_CONSENSUS, [id, threshold, text, frame?.width ?? null, frame?.height ?? null]);
    } else {
      const frames = computed.map((c) => c.frame);
      const params = [computed.map((c) => c.id), threshold, computed.map((c) => c.text), frames.map((f) => f?.width ?? null), frames.map((f) => f?.height ?? null)];
      await runPrepared(pool, STORE_CONSENSUS, params);
    }
  } catch (error) {
    logger.warn(`storing the consensus of ${computed.length} task(s) failed: ${(error as Error).message}`);
  }
}

/**
 * A task's consensus for the one-task answers: the stored one when it holds (`consensus`, parsed by
 * pg), else computed from `subs` with `threshold` and stored.
 */
export async function taskConsensus(
  db: DataSource,
  row: { id: string; consensus: ConsensusAnnotation[] | null; subs: SubmissionRow[] | null },
  threshold: number,
): Promise<ConsensusAnnotation[]> {
  if (row.consensus) return row.consensus;
  const boxes = consensusOf(row.subs ?? [], threshold);
  await storeConsensus(pgPool(db), threshold, [{ id: row.id, text: consensusText(boxes), frame: frameOf(row.subs ?? []) }]);
  return boxes;
}

/**
 * The consensus a walk over a project's tasks (an export, the consensus refresh) computes for tasks whose
 * stored one does not hold, stored back one batch at a time (one UPDATE per batch, in order, while the
 * walk goes on), so the next reader finds them. At most one batch's write is under way: `flush` first
 * waits for the write before it, so the walk (which awaits it after each page) runs at most a page
 * ahead of the database. Flushes used to chain their writes without waiting, so when the writes lagged
 * (a busy database, a walk faster than its UPDATEs) every page's texts waited in memory, a whole
 * project's for an export of 100,000 tasks.
 */
export function storeBack(pool: Pool | PoolClient, threshold: number) {
  let batch: ConsensusToStore[] = [];
  let writing: Promise<void> = Promise.resolve();
  return {
    /** The consensus of a task's submissions with the walk's threshold, and its text, queued to be stored. */
    computed(id: string, subs: ConsensusInput[]): { boxes: ConsensusAnnotation[]; text: string } {
      const result = computeConsensus(subs, threshold);
      batch.push({ id, text: result.text, frame: result.frame });
      return result;
    },
    /** Starts storing the batch once the previous write has ended (it never rejects: storeConsensus logs). */
    async flush(): Promise<void> {
      await writing;
      if (batch.length === 0) return;
      const rows = batch;
      batch = [];
      writing = storeConsensus(pool, threshold, rows);
    },
    async done(): Promise<void> {
      await this.flush();
      await writing;
    },
  };
}
