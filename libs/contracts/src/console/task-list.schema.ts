import { z } from 'zod';
import { pageQueryFields } from '../paging';
import { WORKER_PSEUDONYM } from './blocked-workers';
import { TASK_STATES } from './console.responses';

/**
 * GET /api/console/projects/:uuid/tasks query: `state` keeps one state, `reported=true` the tasks some
 * worker gave back reporting a problem, `worker` the tasks that worker (a pseudonym of this project's
 * results) submitted to, `before` and `limit` page as every list does (paging.ts).
 */
export const consoleTaskListQuerySchema = z.object({
  state: z.enum(TASK_STATES, { error: 'must be incomplete, complete or cancelled' }).optional(),
  reported: z.literal('true', { error: 'must be true, or left out' }).optional(),
  worker: z
    .string()
    .transform((name) => name.toLowerCase())
    .pipe(z.string().regex(WORKER_PSEUDONYM, { error: 'must be a worker of the results, such as worker_3fa9c2d1e0b4' }))
    .optional(),
  ...pageQueryFields,
});
export type ConsoleTaskListQuery = z.output<typeof consoleTaskListQuerySchema>;
