import { z } from 'zod';
import { pageQueryFields } from '../paging';
import type { ConsoleProjectResponse } from './project.schema';

/**
 * GET /api/console/projects query: `archived=true` keeps the archived projects, `archived=false` those in
 * use, neither both; `before` and `limit` page as every list does (paging.ts), newest first.
 */
export const consoleProjectListQuerySchema = z.object({
  archived: z.enum(['true', 'false'], { error: 'must be true or false, or left out' }).optional(),
  ...pageQueryFields,
});
export type ConsoleProjectListQuery = z.output<typeof consoleProjectListQuerySchema>;

/** A page of the account's projects, and how many it has in use and archived (whatever the filter). */
export interface ConsoleProjectsPage {
  data: ConsoleProjectResponse[];
  next_cursor: string | null;
  counts: { in_use: number; archived: number };
}
