import { escapeHtml, type ErrorItem, type TaskInput } from '@crowdbox/contracts';
import { DEFAULT_IMAGE_VARIABLE } from '../projects/project.entity';
import { givenValues, own, taskImage, type NewTask } from '../tasks/task-builder';

/**
 * add_task/add_tasks with a test key and a project this account does not have: a plausible stand-in
 * task (API.md "Test keys"), as the project would make it with the defaults of a new one, so its image
 * comes from `external_image_url` or the default image variable, checked as a live key's would be.
 * Its id is given by TestModeService.createdTask; problems are pushed onto `errors` under `field`.
 */
export function standInTask(input: TaskInput, field: string, errors: ErrorItem[]): NewTask | undefined {
  const given = givenValues(input.substitutions);
  const before = errors.length;
  const image = taskImage(input, DEFAULT_IMAGE_VARIABLE, own(given, DEFAULT_IMAGE_VARIABLE) ?? null, field, errors);
  if (errors.length > before) return undefined;
  const list = Object.entries(given).map(([name, value]) => `<li>${escapeHtml(name)}: ${escapeHtml(value)}</li>`).join('');
  return {
    id: '',
    projectId: '',
    prompt: `<p>Test task (no such project on this account; nothing was created).</p><ul>${list}</ul>`,
    substitutions: given,
    externalImageUrl: image,
    reward: input.reward ?? 25,
    requiredSubmissions: input.required_submissions ?? 3,
    allowedCompletionTimeSeconds: input.allowed_completion_time_seconds ?? 3600,
    callbackUrl: input.callback_url ?? null,
    callbackEndpointId: null,
  };
}
