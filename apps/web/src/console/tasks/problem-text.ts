import type { TaskProblem } from '../lib/console-api';

/**
 * What each problem a worker can report (docs/decisions.md, "Problem reports") means, in the words the
 * console shows it. A Record, so a reason added to TASK_PROBLEMS does not compile until it is worded here.
 */
export const PROBLEM_TEXT: Record<TaskProblem, string> = {
  image_broken: 'The image does not load or is broken',
  unclear_instructions: 'The instructions are unclear',
  offensive_content: 'The image is offensive or inappropriate',
  other: 'Something else',
};
