import { z } from 'zod';
import type { Annotation } from '../requester/responses';
import { intBetween, objectBody, storable } from '../schema-helpers';
import { LIMITS } from '../limits';
import { pageQueryFields } from '../paging';
import { TASK_PROBLEMS } from './task-problems';

/** Worker API (/api/work, API.md §3): request bodies and response shapes. */

export const checkoutBodySchema = objectBody(
  z.object({
    // Lower case, as PostgreSQL writes it and the project cache is keyed (a UUID means the same in either case).
    project_uuid: z
      .string({ error: 'project_uuid is a required field (a project UUID)' })
      .min(1, { error: 'must not be empty' })
      .transform((uuid) => uuid.toLowerCase()),
  }),
);
export type CheckoutBody = z.output<typeof checkoutBodySchema>;

/** One box as the worker app sends it: integer pixels of the original image. */
const annotationSchema = z.object(
  {
    // storable: the label goes into the submit's jsonb parameters before it is compared with the project's.
    label: storable(z.string({ error: 'must be one of the project\u2019s labels' })),
    center_x: intBetween(0, LIMITS.imagePixels),
    center_y: intBetween(0, LIMITS.imagePixels),
    width: intBetween(1, LIMITS.imagePixels),
    height: intBetween(1, LIMITS.imagePixels),
  },
  { error: 'must be a box {label, center_x, center_y, width, height}' },
);

export const submitBodySchema = objectBody(
  z.object({
    annotations: z
      .array(annotationSchema, { error: 'must be an array of boxes {label, center_x, center_y, width, height}' })
      .max(LIMITS.boxesPerSubmission, { error: `must hold at most ${LIMITS.boxesPerSubmission} boxes` }),
    image_width: intBetween(1, LIMITS.imagePixels),
    image_height: intBetween(1, LIMITS.imagePixels),
  }),
);
export type SubmitBody = z.output<typeof submitBodySchema>;

/**
 * POST /api/work/checkouts/:id/release: no body, `null`, `{}` or `{"problem": null}` is a plain skip;
 * `problem` reports one. Stricter than the other bodies (objectBody, which reads a non-object as `{}`
 * and drops unknown keys): every field here is optional, so a body that is not an object, or a
 * misspelt key, would otherwise give the task back with the report silently lost.
 */
export const releaseBodySchema = z.preprocess(
  (value) => (value === undefined || value === null ? {} : value),
  z.strictObject(
    {
      problem: z.enum(TASK_PROBLEMS, { error: `must be one of ${TASK_PROBLEMS.join(', ')}` }).nullish(),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? `has no field ${issue.keys.join(', ')} (only problem)` : 'must be a JSON object') },
  ),
);
export type ReleaseBody = z.output<typeof releaseBodySchema>;

export interface LabelInfo {
  name: string;
  color: string;
}

/** A lease on one task, as the worker app needs it to draw and submit. */
export interface CheckoutResponse {
  checkout_id: string;
  task_uuid: string;
  project_uuid: string;
  /** The task's HTML prompt, sanitized again when handed out. */
  prompt: string;
  external_image_url: string | null;
  labels: LabelInfo[];
  /**
   * The most boxes a submission of this task may hold (maxBoxesPerSubmission of its required
   * submissions): LIMITS.boxesPerSubmission, less in a task of more than 10 submissions. A submit with
   * more is a 422 on `annotations`. Optional only for an API that predates it (a rolling deploy): read
   * its absence as LIMITS.boxesPerSubmission.
   */
  max_boxes?: number;
  reward: number;
  checked_out_at: string;
  expires_at: string;
}

export interface SubmitResponse {
  submission_id: string;
  reward: number;
}

export interface WorkProjectResponse {
  uuid: string;
  display_name: string;
  display_short_description: string;
  reward: number;
  allowed_completion_time_seconds: number;
  available_task_count: number;
  /**
   * The lowest reward of the tasks this worker could take; `reward` is the highest (as before, for
   * callers that read it). Tasks go out oldest first, not best paid first, so the next one may pay
   * anything between the two.
   */
  min_reward: number;
}

export interface EarningsResponse {
  submission_count: number;
  earned_cents: number;
  projects: Array<{ project_uuid: string; display_name: string; submission_count: number; earned_cents: number }>;
}

export type { Annotation };

/**
 * GET /api/work/submissions query: `before` is the `next_cursor` of the previous page (absent for the
 * newest page), `limit` 1 to PAGE_MAX (default 50).
 */
export const workSubmissionsQuerySchema = z.object(pageQueryFields);
export type WorkSubmissionsQuery = z.output<typeof workSubmissionsQuerySchema>;

/** One of the worker's own submissions, as their history lists it. */
export interface WorkSubmissionResponse {
  submission_id: string;
  submitted_at: string;
  project: { uuid: string; display_name: string };
  task_uuid: string;
  box_count: number;
  /** Cents credited for it: the task's reward when it was accepted. */
  reward: number;
  /** Whether the task has all its submissions (its result is out); the reward is the worker's either way. */
  task_complete: boolean;
  /**
   * Whether the requester cancelled the task (or archived its project) before it had all its submissions:
   * it will not complete, so its history does not say it waits for other workers; the reward stays paid.
   */
  task_cancelled: boolean;
}

/** A page of the worker's history, newest first; `next_cursor` is the `before` of the next page, null at the end. */
export interface WorkSubmissionsPage {
  data: WorkSubmissionResponse[];
  next_cursor: string | null;
}
