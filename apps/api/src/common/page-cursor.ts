/**
 * The SQL half of keyset paging (libs/contracts paging.ts holds the query half): a row's cursor,
 * `<moment>|<id>`, written to the microsecond PostgreSQL keeps (a millisecond ISO string would skip or
 * repeat rows made within one millisecond) and in UTC whatever the session's time zone, so that
 * `isPageCursor` takes back exactly what a page answered.
 */
export const pageCursorSql = (moment: string, id: string): string =>
  `to_char(${moment} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '|' || ${id}`;

/** A cursor `isPageCursor` took: its moment and row id, for `(moment, id) < ($n::timestamptz, $m::uuid)`. */
export const splitPageCursor = (cursor: string): [string, string] => {
  const [moment, id] = cursor.split('|');
  return [moment, id];
};
