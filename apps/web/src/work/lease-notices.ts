import type { ErrorItem } from '@crowdbox/contracts';
import { formatCents } from '../shell/format';
import { endedBecause } from './lease-end';
import type { SettledDrafts } from './settle-drafts';

// What the worker page says about the lease life cycle (use-task-lease.ts): notices above the task, and failures beside Submit.

/** A notice above the task: what just happened to the previous one. */
export interface LeaseNotice {
  tone: 'success' | 'info' | 'warning';
  text: string;
}

/** What to say about the earlier leases' drafts, if anything. */
export function earlierNotice({ lost, lostBoxes, submitted }: SettledDrafts): LeaseNotice | null {
  if (lost.length > 0) {
    const why = endedBecause(lost);
    const boxes = lostBoxes ? `; its ${lostBoxes} ${lostBoxes === 1 ? 'box was' : 'boxes were'} not sent` : '';
    return { tone: 'warning', text: `Your previous task here ended before it was submitted${why ? ` (${why})` : ''}${boxes}. This is a new task.` };
  }
  return submitted > 0 ? { tone: 'info', text: 'Your previous task here was submitted. This is a new task.' } : null;
}

/**
 * The notice of what just happened (a submit and its reward) with the one about the earlier leases' drafts:
 * both are said, neither in the other's place (docs/annotator.md), in the warning colour when either warns.
 */
export function withEarlier(notice: LeaseNotice | null, earlier: LeaseNotice | null): LeaseNotice | null {
  if (!notice || !earlier) return notice ?? earlier;
  return { tone: earlier.tone === 'warning' ? 'warning' : notice.tone, text: `${notice.text} ${earlier.text}` };
}

/** What the task page hands the work list (router state) after "Submit and stop": the notice to show there. */
export interface WorkListState {
  notice: LeaseNotice;
}

export function submittedNotice(boxes: number, reward: number): LeaseNotice {
  return { tone: 'success', text: `Submitted ${boxes} ${boxes === 1 ? 'box' : 'boxes'}. You earned ${formatCents(reward)}.` };
}

export const ALREADY_SUBMITTED_NOTICE: LeaseNotice = { tone: 'info', text: 'This task was already submitted.' };
export const SUBMIT_ARRIVED_NOTICE: LeaseNotice = { tone: 'success', text: 'Your submit arrived: the task was submitted.' };
export const SKIPPED_NOTICE: LeaseNotice = { tone: 'info', text: 'Skipped. The task went back to other workers.' };
export const GIVEN_BACK_NOTICE: LeaseNotice = { tone: 'info', text: 'Task given back. It went to other workers.' };
export const SKIPPED_CANCELLED_NOTICE: LeaseNotice = { tone: 'info', text: 'The requester cancelled this task before you skipped it.' };

/** A failed action, with a title that says what the worker can tell of it. */
export interface ActionFailure {
  title: string;
  errors: ErrorItem[];
}

/**
 * Without an answer the submit may well have arrived. Submitting again is safe: the same body is
 * answered with the first result, and other boxes with "already submitted", which ends the task here.
 */
export const NO_ANSWER: ActionFailure = {
  title: 'No answer from the server',
  errors: [{ field: 'root', detail: 'The boxes may or may not have arrived. Submit again: a submission is never counted twice.' }],
};
