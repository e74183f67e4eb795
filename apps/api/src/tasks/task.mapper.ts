import type { TaskResponse } from '@crowdbox/contracts';
import type { NewTask } from './task-builder';

/** What the task queries select: the task row plus its live lease time and submission ids. */
export interface TaskRow {
  id: string;
  prompt: string;
  reward: number;
  callback_url: string | null;
  required_submissions: number;
  submission_count: number;
  checked_out_at: Date | null;
  allowed_completion_time_seconds: number;
  external_image_url: string | null;
  submission_ids: string[] | null;
}

/** The requester API's Task, in the seed spec's field order. */
export function toTaskResponse(row: TaskRow): TaskResponse {
  return {
    prompt: row.prompt,
    task_uuid: row.id,
    reward: row.reward,
    callback_url: row.callback_url,
    required_submissions: row.required_submissions,
    submission_count: row.submission_count,
    checked_out_at: row.checked_out_at ? row.checked_out_at.toISOString() : null,
    allowed_completion_time_seconds: row.allowed_completion_time_seconds,
    external_image_url: row.external_image_url,
    submissions: row.submission_ids ?? [],
  };
}

/** The Task a new task answers with (add_task, add_tasks, and a test key's as it would have been). */
export function newTaskResponse(task: NewTask): TaskResponse {
  return toTaskResponse({
    id: task.id,
    prompt: task.prompt,
    reward: task.reward,
    callback_url: task.callbackUrl,
    required_submissions: task.requiredSubmissions,
    submission_count: 0,
    checked_out_at: null,
    allowed_completion_time_seconds: task.allowedCompletionTimeSeconds,
    external_image_url: task.externalImageUrl,
    submission_ids: [],
  });
}

/**
 * SELECT list producing a TaskRow from `tasks t`. A complete task has no checkout time: a lease taken in
 * the millisecond its last slot's lease ran out may stay active on it, but no worker holds the task
 * (its submit is refused: docs/decisions.md, "A lease whose task other workers completed").
 */
export const TASK_ROW_SQL = `
  t.id, t.prompt, t.reward, t.callback_url, t.required_submissions, t.submission_count,
  t.allowed_completion_time_seconds, t.external_image_url,
  CASE WHEN t.completed_at IS NULL THEN
    (SELECT max(c.checked_out_at) FROM checkouts c
      WHERE c.task_id = t.id AND c.state = 'active' AND c.expires_at > now())
  END AS checked_out_at,
  (SELECT array_agg(s.id ORDER BY s.created_at, s.id) FROM submissions s WHERE s.task_id = t.id) AS submission_ids`;
