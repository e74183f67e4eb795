import { z } from 'zod';
import type { Annotation } from '../requester/responses';
import { intBetween, objectBody } from '../schema-helpers';
import { LIMITS } from '../limits';

/** Worker API (/api/work, API.md §3): request bodies and response shapes. */

export const checkoutBodySchema = objectBody(
  z.object({
    project_uuid: z.string({ error: 'project_uuid is a required field (a project UUID)' }).min(1, { error: 'must not be empty' }),
  }),
);
export type CheckoutBody = z.output<typeof checkoutBodySchema>;

/** One box as the worker app sends it: integer pixels of the original image. */
const annotationSchema = z.object({
  label: z.string({ error: 'must be one of the project\u2019s labels' }),
  center_x: intBetween(0, LIMITS.imagePixels),
  center_y: intBetween(0, LIMITS.imagePixels),
  width: intBetween(1, LIMITS.imagePixels),
  height: intBetween(1, LIMITS.imagePixels),
});

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
}

export interface EarningsResponse {
  submission_count: number;
  earned_cents: number;
  projects: Array<{ project_uuid: string; display_name: string; submission_count: number; earned_cents: number }>;
}

export type { Annotation };
