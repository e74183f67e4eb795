import { z } from 'zod';
import { LIMITS } from '../limits';
import { callbackUrl, httpUrl, intBetween, objectBody, refuseProtoKey, required, storable } from '../schema-helpers';

/**
 * Template values: strings, or numbers and booleans turned into strings; null (below) is no value; anything
 * else is an error.
 */
const substitutionValue = z.unknown().transform((value, ctx) => {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return String(value);
  if (typeof value !== 'string') {
    ctx.addIssue({ code: 'custom', message: 'must be a string, number or boolean' });
    return z.NEVER;
  }
  if (value.length > LIMITS.substitutionValueChars) {
    ctx.addIssue({ code: 'custom', message: `must be at most ${LIMITS.substitutionValueChars} characters` });
    return z.NEVER;
  }
  return value;
});

const substitutionsRecord = z
  // null is "no value given" (the project's default applies), as null is for every optional field: API.md
  // names only objects and arrays as errors. The key stays, so a null for no variable is still a 422.
  .record(storable(z.string()), storable(substitutionValue).nullable(), {
    // A bad key is an issue of the record's own; its detail is the key check's, under the key's path.
    error: (issue) =>
      issue.code === 'invalid_key' ? issue.issues[0]?.message : 'must be an object mapping template variables to values',
  })
  .refine((map) => Object.keys(map).length <= LIMITS.substitutions, {
    error: `must have at most ${LIMITS.substitutions} entries`,
  });
const substitutions = z.preprocess(
  refuseProtoKey("is not a variable of the project's template; no variable is named __proto__"),
  substitutionsRecord,
);

/**
 * Lower case: a UUID's hex digits mean the same in either case, so the task's and the top-level one are
 * compared, and the body hashed for Idempotency-Key and test keys' answers, as the same UUID.
 */
const projectUuid = z.string({ error: 'must be a string (the project UUID)' }).transform((uuid) => uuid.toLowerCase());

/** One task as requesters send it: every field but the project is optional and falls back to the project. */
export const taskInputSchema = z.object(
  {
    project_uuid: projectUuid.nullish(),
    required_submissions: intBetween(LIMITS.requiredSubmissions.min, LIMITS.requiredSubmissions.max).nullish(),
    reward: intBetween(LIMITS.rewardCents.min, LIMITS.rewardCents.max).nullish(),
    allowed_completion_time_seconds: intBetween(LIMITS.completionSeconds.min, LIMITS.completionSeconds.max).nullish(),
    callback_url: callbackUrl.nullish(),
    external_image_url: httpUrl.nullish(),
    substitutions: substitutions.nullish(),
  },
  { error: (issue) => (issue.input === undefined ? 'task is a required field' : 'task must be an object') },
);
export type TaskInput = z.output<typeof taskInputSchema>;

export const addTaskBodySchema = objectBody(
  z.object({
    project_uuid: projectUuid.nullish(),
    task: required(taskInputSchema),
  }),
);
export type AddTaskBody = z.output<typeof addTaskBodySchema>;

export const addTasksBodySchema = objectBody(
  z.object({
    project_uuid: projectUuid.nullish(),
    tasks: required(
      z
        .array(taskInputSchema, {
          error: (issue) => (issue.input === undefined ? 'tasks is a required field' : 'tasks must be an array of task objects'),
        })
        .min(1, { error: 'tasks must hold at least one task' })
        .max(LIMITS.batchTasks, { error: `tasks must hold at most ${LIMITS.batchTasks} tasks` }),
    ),
  }),
);
export type AddTasksBody = z.output<typeof addTasksBodySchema>;
