import type { ConsensusAnnotation, TaskAnnotationsRecord, TaskResponse } from '@crowdbox/contracts';
import { storedConsensusHolds } from '../submissions/stored-consensus';
import { consensusOf, submissionsJson, type SubmissionRow } from '../submissions/task-results';
import { TASK_ROW_SQL, toTaskResponse, type TaskRow } from '../tasks/task.mapper';

export interface TaskCompletedPayload {
  event: 'task_completed';
  id: string;
  created_at: string;
  data: { task: TaskResponse; annotations: TaskAnnotationsRecord };
}

/**
 * Columns (for a query over `tasks t JOIN projects p`) from which taskCompletedPayload builds the body:
 * the consensus stored by the completing submission when it holds for the project's threshold (it
 * always does unless the threshold changed in between), else the submissions to compute it from.
 */
const HOLDS = storedConsensusHolds('p.consensus_iou_threshold');
export const TASK_COMPLETED_SQL = `${TASK_ROW_SQL}, t.completed_at, p.consensus_iou_threshold AS threshold,
  CASE WHEN ${HOLDS} THEN t.consensus END AS consensus,
  CASE WHEN NOT ${HOLDS} THEN ${submissionsJson('t')} END AS subs`;

export type TaskCompletedRow = TaskRow & {
  completed_at: Date | null;
  threshold: number;
  consensus: ConsensusAnnotation[] | null;
  subs: SubmissionRow[] | null;
};

/**
 * The body of a `task_completed` event (API.md §2), built once on the first attempt and stored with the
 * event, so every retry and redelivery sends the very same bytes.
 */
export function taskCompletedPayload(event: { id: string; created_at: Date }, row: TaskCompletedRow): TaskCompletedPayload | undefined {
  if (!row.completed_at) return undefined;
  return {
    event: 'task_completed',
    id: event.id,
    created_at: event.created_at.toISOString(),
    data: {
      task: toTaskResponse(row),
      annotations: {
        task_uuid: row.id,
        completed: true,
        completed_at: row.completed_at.toISOString(),
        annotations: row.consensus ?? consensusOf(row.subs ?? [], row.threshold),
      },
    },
  };
}
