import { consensus } from '@crowdbox/boxes';
import type { Annotation, ConsensusAnnotation, WorkerSubmission } from '@crowdbox/contracts';
import { workerPseudonym } from './worker-pseudonym';

/** A submission as the result queries select it (json_build_object keys). */
export interface SubmissionRow {
  id: string;
  worker_id: string;
  boxes: Annotation[];
  image_width: number;
  image_height: number;
  created_at: string;
}

/** SQL producing `subs` (a JSON array of SubmissionRow, oldest first) for the task aliased `t`. */
export const SUBMISSIONS_JSON_SQL = `${submissionsJson('t')} AS subs`;

/** The expression of SUBMISSIONS_JSON_SQL for the task aliased `task` (no column alias). */
export function submissionsJson(task: string): string {
  return `coalesce((SELECT json_agg(json_build_object(
      'id', s.id, 'worker_id', s.worker_id, 'boxes', s.boxes, 'image_width', s.image_width,
      'image_height', s.image_height, 'created_at', s.created_at) ORDER BY s.created_at, s.id)
    FROM submissions s WHERE s.task_id = ${task}.id), '[]'::json)`;
}

/**
 * Only what the consensus reads of each submission, as a JSON array of `[worker_id, boxes]` pairs
 * (oldest first), for the task aliased `t`: the project export's query, which reads every submission
 * of up to 100,000s of tasks, so a smaller row is less for PostgreSQL to build and for us to parse.
 */
export const CONSENSUS_INPUT_JSON_SQL = `${consensusInputJson('t')} AS subs`;

/**
 * The expression of CONSENSUS_INPUT_JSON_SQL for the task aliased `task` (no column alias). Every
 * consensus is computed from this one shape and order, so each path gives the same bytes. The completing
 * submit reads the same through the database function task_consensus_inputs (migration 1764700000000,
 * frozen there like every migration): a change here needs a migration that changes it too.
 */
export function consensusInputJson(task: string): string {
  return `coalesce((SELECT json_agg(json_build_array(s.worker_id, s.boxes) ORDER BY s.created_at, s.id)
    FROM submissions s WHERE s.task_id = ${task}.id), '[]'::json)`;
}

/** A submission as CONSENSUS_INPUT_JSON_SQL selects it. */
export type ConsensusInput = [workerId: string, boxes: Annotation[]];

/** consensusOf for rows of CONSENSUS_INPUT_JSON_SQL. */
export function consensusOfInputs(inputs: ConsensusInput[], iouThreshold: number): ConsensusAnnotation[] {
  return consensus(
    inputs.map(([worker, boxes]) => ({ worker, boxes })),
    { iouThreshold },
  );
}

/** The consensus of a complete task's submissions (API.md §5), through libs/boxes. */
export function consensusOf(submissions: SubmissionRow[], iouThreshold: number): ConsensusAnnotation[] {
  return consensus(
    submissions.map((s) => ({ worker: s.worker_id, boxes: s.boxes })),
    { iouThreshold },
  );
}

export function toWorkerSubmissions(projectId: string, submissions: SubmissionRow[]): WorkerSubmission[] {
  return submissions.map((s) => ({
    submission_id: s.id,
    worker: workerPseudonym(projectId, s.worker_id),
    annotations: s.boxes.map((b) => ({ label: b.label, center_x: b.center_x, center_y: b.center_y, width: b.width, height: b.height })),
    submitted_at: new Date(s.created_at).toISOString(),
  }));
}
