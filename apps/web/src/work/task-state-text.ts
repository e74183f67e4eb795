import type { WorkSubmissionResponse } from '@crowdbox/contracts';

/**
 * What became of the submission's task. A task the requester cancelled before it had all its submissions
 * never completes: "waiting for other workers" would stay on it for good. The reward is paid either way.
 */
export function taskStateText(s: Pick<WorkSubmissionResponse, 'task_complete' | 'task_cancelled'>): string {
  if (s.task_complete) return 'Complete';
  return s.task_cancelled ? 'Cancelled by the requester (still paid)' : 'Waiting for other workers';
}
