import { httpUrl, LIMITS, prepareRender, sanitizeTemplate, templateVariableSet, type ErrorItem, type TaskInput } from '@crowdbox/contracts';
import { randomUUID } from 'node:crypto';
import type { Project } from '../projects/project.entity';

/** A task ready to insert: defaults applied, prompt rendered, image resolved. */
export interface NewTask {
  id: string;
  projectId: string;
  prompt: string;
  substitutions: Record<string, string>;
  externalImageUrl: string | null;
  reward: number;
  requiredSubmissions: number;
  allowedCompletionTimeSeconds: number;
  callbackUrl: string | null;
  /** Set by the service once the address is registered (webhooks/webhook-endpoints.service.ts). */
  callbackEndpointId: string | null;
}

/** What a batch's prompts may still add up to (LIMITS.batchPromptChars); buildTask takes from it. */
export interface PromptBudget {
  chars: number;
}

/**
 * Applies a project to one task input. Problems are pushed onto `errors` with `field` as the path
 * prefix (`task` or `tasks.3`), so a batch reports every bad task at once. In a batch, each prompt is
 * taken from `budget` before it is built.
 */
export function buildTask(project: Project, input: TaskInput, field: string, errors: ErrorItem[], budget?: PromptBudget): NewTask | undefined {
  const sent = input.substitutions ?? {};
  const given = givenValues(sent);
  // The template's variables are the task's (API.md §1): one the console declares that the template does
  // not use is neither required nor accepted, except the image variable (docs/decisions.md).
  const variables = templateVariableSet(project.template);
  const before = errors.length;
  // Every key sent, a null one too: `{"colour": null}` names no variable either.
  for (const name of Object.keys(sent)) {
    if (!variables.has(name) && name !== project.imageVariable) {
      errors.push({
        field: `${field}.substitutions.${name}`,
        detail: `is not a variable of the project's template; known variables: ${[...new Set([...variables, project.imageVariable])].join(', ')}`,
      });
    }
  }
  const values: Record<string, string> = {};
  for (const name of variables) {
    const value = own(given, name) ?? own(project.variables, name) ?? null;
    if (value === null) {
      errors.push({ field: `${field}.substitutions.${name}`, detail: 'has no value and the project has no default for it' });
    } else {
      values[name] = value;
    }
  }
  const image = taskImage(input, project.imageVariable, own(given, project.imageVariable) ?? own(project.variables, project.imageVariable) ?? null, field, errors);
  if (errors.length > before) return undefined;
  const prompt = prepareRender(project.template, values);
  if (prompt.length > LIMITS.promptChars) {
    errors.push({
      field: `${field}.substitutions`,
      detail: `would make a prompt of ${prompt.length} characters (each value HTML-escaped, in every placeholder that uses it); a prompt must be at most ${LIMITS.promptChars} characters`,
    });
    return undefined;
  }
  if (budget) {
    // Once spent, every later task of the batch is past it too; the first one's error says so.
    if (budget.chars < 0) return undefined;
    if (prompt.length > budget.chars) {
      errors.push({
        field: `${field}.substitutions`,
        detail: `would bring the batch's prompts past ${LIMITS.batchPromptChars} characters in all; send these tasks in smaller batches`,
      });
      budget.chars = -1;
      return undefined;
    }
    budget.chars -= prompt.length;
  }
  return {
    id: randomUUID(),
    projectId: project.id,
    // Values in text are escaped and safe; one in an attribute may be a script URL (docs/decisions.md).
    prompt: prompt.valueInTag ? sanitizeTemplate(prompt.html()) : prompt.html(),
    substitutions: given,
    externalImageUrl: image,
    reward: input.reward ?? project.defaultReward,
    requiredSubmissions: input.required_submissions ?? project.defaultRequiredSubmissions,
    allowedCompletionTimeSeconds: input.allowed_completion_time_seconds ?? project.allowedCompletionTimeSeconds,
    callbackUrl: input.callback_url ?? null,
    callbackEndpointId: null,
  };
}

/**
 * A task's image (API.md §1): its external_image_url, else the value of the project's image variable,
 * which must then be an http(s) URL (its error is pushed on that substitution).
 */
export function taskImage(input: TaskInput, variable: string, value: string | null, field: string, errors: ErrorItem[]): string | null {
  if (input.external_image_url) return input.external_image_url;
  if (value === null) return null;
  const image = httpUrl.safeParse(value);
  if (image.success) return image.data; // as httpUrl reads it (without the spaces around it)
  // httpUrl's own reason (not a URL, or too long), said of the image.
  errors.push({ field: `${field}.substitutions.${variable}`, detail: `${image.error.issues[0].message} (it is the image)` });
  return null;
}

/**
 * The values a task was given: a null is no value given (the project's default applies), so it is
 * neither used nor stored.
 */
export function givenValues(substitutions: Record<string, string | null> | null | undefined): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(substitutions ?? {})) if (value !== null) values[name] = value;
  return values;
}

/**
 * A key's own value: a variable may be named like one of Object.prototype's members (`[[constructor]]`),
 * and `given.constructor` would be that function, not the requester's missing value.
 */
export function own<T>(record: Record<string, T>, name: string): T | undefined {
  return Object.hasOwn(record, name) ? record[name] : undefined;
}

/** project_uuid may sit in the task or at the top of the body; both present must agree. */
export function resolveProjectUuid(
  topLevel: string | null | undefined,
  input: TaskInput,
  field: string,
  errors: ErrorItem[],
): string | undefined {
  const inner = input.project_uuid ?? undefined;
  const outer = topLevel ?? undefined;
  if (inner !== undefined && outer !== undefined && inner !== outer) {
    errors.push({ field: `${field}.project_uuid`, detail: 'differs from the top-level project_uuid; give one, or the same in both' });
    return undefined;
  }
  const uuid = inner ?? outer;
  if (uuid === undefined) {
    errors.push({ field: `${field}.project_uuid`, detail: 'project_uuid is a required field (inside the task or at the top level)' });
  }
  return uuid;
}

