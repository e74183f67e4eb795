/**
 * The SQL half of keyset paging (libs/contracts paging.ts holds the query half), one way for every list
 * paged newest first: a row's cursor is `<moment>|<id>`, written to the microsecond PostgreSQL keeps (a
 * millisecond ISO string would skip or repeat rows made within one millisecond) and in UTC whatever the
 * session's time zone, so that `isPageCursor` takes back exactly what a page answered.
 *
 * A list's statement has $1 for whose rows it lists, and with a cursor $2 and $3 for its moment and id.
 * Two texts, with and without the cursor, rather than `$2 IS NULL OR …`: under a generic plan that OR
 * keeps the keyset out of the index condition, and a page read and sorted every row up to the cursor.
 */

/** The cursor column of a row ordered by (`moment`, `id`) descending. */
export const pageCursorSql = (moment: string, id: string): string =>
  `to_char(${moment} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '|' || ${id}`;

/** The rows after the cursor's: `(moment, id) < ($2, $3)`. */
export const afterCursorSql = (moment: string, id: string): string => `(${moment}, ${id}) < ($2::timestamptz, $3::uuid)`;

/** The statement's parameters: `owner` ($1), then the cursor's moment and id when there is one. */
export function pageParams(owner: string, before: string | undefined): string[] {
  if (before === undefined) return [owner];
  const [moment, id] = before.split('|');
  return [owner, moment, id];
}

/**
 * A page of `limit` rows from a statement that asked for `limit + 1`: the extra row says there is a next
 * page, whose `before` is the last row's cursor.
 */
export function cutPage<R extends { cursor: string }>(rows: R[], limit: number): { rows: R[]; next_cursor: string | null } {
  const page = rows.slice(0, limit);
  return { rows: page, next_cursor: rows.length > limit ? page[page.length - 1].cursor : null };
}
