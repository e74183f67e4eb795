import { z } from 'zod';
import { intBetween } from './schema-helpers';

/**
 * Keyset paging, one way for every list the API pages newest first (the console's task list, the
 * worker's history): a page answers `next_cursor`, and the next page is asked for with
 * `before=<that cursor>` and the same `limit`.
 */

/** The most rows one page holds. */
export const PAGE_MAX = 100;
export const PAGE_DEFAULT = 50;

export const CURSOR_DETAIL = 'must be a next_cursor from a previous page';
/**
 * `<moment as 2026-11-25T12:00:00.123456Z>|<row uuid>`, as the API writes it: to the microsecond
 * PostgreSQL keeps (a millisecond would skip or repeat rows made within one), in UTC.
 */
const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\.\d{6}Z\|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A cursor of the API's own making: the pattern, and a real moment (no 2026-02-31, which PostgreSQL refuses). */
export function isPageCursor(value: string): boolean {
  const match = CURSOR.exec(value);
  if (!match) return false;
  const at = Date.parse(`${match[1]}Z`);
  return Number.isFinite(at) && new Date(at).toISOString().slice(0, 19) === match[1] && at >= 0;
}

/** The query's `before` and `limit` (values arrive as strings; a repeated parameter is refused). */
export const pageQueryFields = {
  before: z.string({ error: CURSOR_DETAIL }).refine(isPageCursor, { error: CURSOR_DETAIL }).optional(),
  limit: z
    .string({ error: `must be an integer from 1 to ${PAGE_MAX}` })
    .regex(/^\d{1,3}$/, { error: `must be an integer from 1 to ${PAGE_MAX}`, abort: true })
    .transform(Number)
    .pipe(intBetween(1, PAGE_MAX))
    .optional(),
};
