import type { TaskProblem } from '@crowdbox/contracts';

/**
 * What each problem a worker can report (docs/decisions.md, "Problem reports") means, in the same words
 * where the worker chooses it (work/problem-report.tsx) and where the requester reads it (the console's
 * task page), so both name one thing alike. A Record, so a reason added to TASK_PROBLEMS does not compile
 * until it is worded here. Only the lazily loaded parts import it: it is not in the worker's first load.
 */
export const PROBLEM_TEXT: Record<TaskProblem, string> = {
  image_broken: 'The image does not load or is broken',
  unclear_instructions: 'The instructions are unclear',
  offensive_content: 'The image is offensive or inappropriate',
  other: 'Something else is wrong',
};
