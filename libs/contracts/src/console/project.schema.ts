import { z } from 'zod';
import { LIMITS } from '../limits';
import { intBetween, objectBody, refuseProtoKey, storable, text } from '../schema-helpers';

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const NO_PROTO_VARIABLE = 'no variable may be named __proto__ (a [[__proto__]] in a template is plain text)';
const COLOR = /^#[0-9a-fA-F]{6}$/;

const label = z.union(
  [
    text(LIMITS.labelChars, 'a label name'),
    z.object({
      name: text(LIMITS.labelChars, 'a label name'),
      color: z.string().regex(COLOR, { error: 'must be a colour like #1f77b4' }).optional(),
    }),
  ],
  { error: 'must be a label name or {name, color}' },
);

const labels = z
  .array(label, { error: 'must be an array of label names or {name, color} objects' })
  .min(1, { error: 'must hold at least one label' })
  .max(LIMITS.labels, { error: `must hold at most ${LIMITS.labels} labels` });

const variables = z.preprocess(
  refuseProtoKey(NO_PROTO_VARIABLE),
  z.record(
    z.string().regex(VARIABLE_NAME, { error: 'variable names use letters, digits, _ . -' }),
    storable(z.string({ error: 'must be a string or null' }).max(LIMITS.substitutionValueChars)).nullable(),
    { error: 'must map variable names to default values (string or null)' },
  ).refine((map) => Object.keys(map).length <= LIMITS.substitutions, { error: `must have at most ${LIMITS.substitutions} entries` }),
);

const projectFields = {
  name: text(200, 'a name'),
  display_name: text(200, 'a display name'),
  display_short_description: storable(z.string({ error: 'must be a string' }).trim().max(1000, { error: 'must be at most 1000 characters' })),
  template: storable(
    z
      .string({ error: 'must be a string of HTML' })
      .min(1, { error: 'must not be empty' })
      .max(LIMITS.templateChars, { error: `must be at most ${LIMITS.templateChars} characters` }),
  ),
  labels,
  default_required_submissions: intBetween(LIMITS.requiredSubmissions.min, LIMITS.requiredSubmissions.max),
  default_reward: intBetween(LIMITS.rewardCents.min, LIMITS.rewardCents.max),
  allowed_completion_time_seconds: intBetween(LIMITS.completionSeconds.min, LIMITS.completionSeconds.max),
  variables: variables.optional(),
  image_variable: z
    .string()
    .regex(VARIABLE_NAME, { error: 'must be a variable name' })
    .refine((name) => name !== '__proto__', { error: NO_PROTO_VARIABLE })
    .optional(),
  /**
   * At least 0.001, the step answers show it in: below, the consensus's tie tolerance (1e-9) let boxes
   * that do not overlap at all (IoU 0) merge into a box nobody drew, PostgreSQL's real could not hold
   * 1e-300 (a 500), and an answer showed a threshold of 0 (docs/decisions.md).
   */
  consensus_iou_threshold: z
    .number({ error: 'must be a number from 0.001 to 1' })
    .min(0.001, { error: 'must be a number from 0.001 to 1' })
    .max(1, { error: 'must be a number from 0.001 to 1' })
    .optional(),
};

export const createProjectBodySchema = objectBody(z.object(projectFields));
export type CreateProjectBody = z.output<typeof createProjectBodySchema>;

export const updateProjectBodySchema = objectBody(
  z
    .object({
      ...projectFields,
      /**
       * The project's `updated_at` as the caller read it: the PATCH applies only while the project still has
       * it, else 409, so an edit made on an old copy never overwrites a newer save (docs/decisions.md).
       */
      expected_updated_at: z.iso.datetime({ error: 'must be the project’s updated_at as read, an ISO 8601 UTC time' }),
    })
    .partial(),
);
export type UpdateProjectBody = z.output<typeof updateProjectBodySchema>;

export interface LabelResponse {
  name: string;
  color: string;
}

/** The console's view of a project: the requester API's Project plus its configuration. */
export interface ConsoleProjectResponse {
  uuid: string;
  name: string;
  display_name: string;
  display_short_description: string;
  default_required_submissions: number;
  default_reward: number;
  allowed_completion_time_seconds: number;
  has_published_tasks: boolean;
  available_task_count: number;
  average_outstanding_task_reward_cents: number;
  lifetime_payments_to_workers_cents: number;
  template: string;
  variables: Record<string, string | null>;
  labels: LabelResponse[];
  image_variable: string;
  consensus_iou_threshold: number;
  created_at: string;
  updated_at: string;
  /** When the project was archived (POST …/archive), null while in use; console only, never on /api/v1. */
  archived_at: string | null;
}
