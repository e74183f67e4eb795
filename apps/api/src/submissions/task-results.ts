import { boxInFrame, consensus, peerAgreement, type ImageSize, type PeerAgreement, type Submission } from '@crowdbox/boxes';
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
 * Only what the consensus reads of each submission, as a JSON array of `[worker_id, boxes, image_width,
 * image_height]` (oldest first), for the task aliased `t`: the project export's query, which reads every submission
 * of up to 100,000s of tasks, so a smaller row is less for PostgreSQL to build and for us to parse.
 */
export const CONSENSUS_INPUT_JSON_SQL = `${consensusInputJson('t')} AS subs`;

/**
 * The expression of CONSENSUS_INPUT_JSON_SQL for the task aliased `task` (no column alias). Every
 * consensus is computed from this one shape and order, so each path gives the same bytes. The completing
 * submit reads the same through the database function task_consensus_inputs (migration 1765700000000,
 * frozen there like every migration): a change here needs a migration that changes it too.
 */
export function consensusInputJson(task: string): string {
  return `coalesce((SELECT json_agg(json_build_array(s.worker_id, s.boxes, s.image_width, s.image_height) ORDER BY s.created_at, s.id)
    FROM submissions s WHERE s.task_id = ${task}.id), '[]'::json)`;
}

/** A submission as CONSENSUS_INPUT_JSON_SQL selects it. */
export type ConsensusInput = [workerId: string, boxes: Annotation[], imageWidth: number, imageHeight: number];

/** consensusOf for rows of CONSENSUS_INPUT_JSON_SQL. */
export function consensusOfInputs(inputs: ConsensusInput[], iouThreshold: number): ConsensusAnnotation[] {
  return consensusInFrame(
    inputs.map(([worker, boxes, width, height]) => ({ worker, boxes, image: { width, height } })),
    iouThreshold,
  );
}

/** The consensus of a complete task's submissions (API.md §5), through libs/boxes. */
export function consensusOf(submissions: SubmissionRow[], iouThreshold: number): ConsensusAnnotation[] {
  return consensusInFrame(submissions.map(asSubmission), iouThreshold);
}

/**
 * A task's frame: the image size its first submission reported, which is also the size COCO's image
 * entry gives (docs/decisions.md, "One frame per task"). Every box a task's answers show is in its
 * pixels; `submissions` are oldest first, as the queries above order them.
 */
function consensusInFrame(submissions: Submission[], iouThreshold: number): ConsensusAnnotation[] {
  return consensus(submissions, { iouThreshold, frame: submissions[0]?.image });
}

/**
 * What comparing a task's workers (peerAgreementOf) weighs: each worker's boxes times the others' boxes,
 * what their pairing compares at most. It grows with the leave-one-out consensus runs too.
 */
export function comparisonWeight(submissions: SubmissionRow[]): number {
  const total = submissions.reduce((sum, s) => sum + s.boxes.length, 0);
  return submissions.length < 2 ? 0 : submissions.reduce((sum, s) => sum + s.boxes.length * (total - s.boxes.length), 0);
}

/**
 * The heaviest task compared on request. Measured: 3 workers of 500 overlapping boxes (1,500,000) take
 * ~450 ms; 100 workers of 40 boxes (15,840,000), a task's limits allow, took 1.3 s, too long to hold an
 * HTTP process's event loop for one page view.
 */
export const MAX_COMPARED_WEIGHT = 2_000_000;

/**
 * How each worker of a task agrees with the task's other workers (libs/boxes' peerAgreement), in the
 * task's frame as its consensus is computed; `worker` is the worker's id. None for a task heavier than
 * MAX_COMPARED_WEIGHT: the task page and the Workers page then show no comparison for it.
 */
export function peerAgreementOf(submissions: SubmissionRow[], iouThreshold: number): PeerAgreement[] {
  if (comparisonWeight(submissions) > MAX_COMPARED_WEIGHT) return [];
  return peerAgreement(submissions.map(asSubmission), { iouThreshold, frame: frameOf(submissions) ?? undefined });
}

/** A stored submission as libs/boxes takes it: the worker's id, their boxes and the image size they saw. */
function asSubmission(s: SubmissionRow): Submission {
  return { worker: s.worker_id, boxes: s.boxes, image: imageOf(s) };
}

function imageOf(s: SubmissionRow): ImageSize {
  return { width: s.image_width, height: s.image_height };
}

/** The task's frame (consensusInFrame) for its submissions, oldest first; null before the first. */
export function frameOf(submissions: SubmissionRow[]): ImageSize | null {
  return submissions.length > 0 ? imageOf(submissions[0]) : null;
}

/** Each worker's own boxes, in the task's frame (consensusInFrame) like its consensus. */
export function toWorkerSubmissions(projectId: string, submissions: SubmissionRow[]): WorkerSubmission[] {
  const frame = frameOf(submissions);
  if (!frame) return [];
  return submissions.map((s) => ({
    submission_id: s.id,
    worker: workerPseudonym(projectId, s.worker_id),
    annotations: s.boxes.map((b) => fiveFields(boxInFrame(b, imageOf(s), frame))),
    submitted_at: new Date(s.created_at).toISOString(),
  }));
}

/** Only the five fields of a box, in the contract's order. */
function fiveFields(box: Annotation): Annotation {
  return { label: box.label, center_x: box.center_x, center_y: box.center_y, width: box.width, height: box.height };
}
