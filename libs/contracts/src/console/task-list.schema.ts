import { z } from 'zod';
import { pageQueryFields } from '../paging';
import { TASK_STATES } from './console.responses';

/**
 * GET /api/console/projects/:uuid/tasks query: `state` keeps one state, `reported=true` the tasks some
 * worker gave back reporting a problem, `before` and `limit` page as every list does (paging.ts).
 */
export const consoleTaskListQuerySchema = z.object({
  state: z.enum(TASK_STATES, { error: 'must be incomplete, complete or cancelled' }).optional(),
  reported: z.literal('true', { error: 'must be true, or left out' }).optional(),
  ...pageQueryFields,
});
export type ConsoleTaskListQuery = z.output<typeof consoleTaskListQuerySchema>;
