/**
 * What every list paged newest first (libs/contracts paging.ts: the console's task list, the worker's
 * history) refuses, each a 422 in the contract's shape: one list, so both are held to the same.
 */
export const CURSOR_ERROR = { errors: [{ field: 'before', detail: 'must be a next_cursor from a previous page' }] };
export const LIMIT_ERROR = { errors: [{ field: 'limit', detail: 'must be an integer from 1 to 100' }] };

/** `before` values no page answered; `uuid` is a well-formed id, so only the moment or the form is wrong. */
export const refusedCursors = (uuid: string): string[] => [
  'garbage',
  uuid,
  `2026-11-20T10:00:00.000007Z|not-a-uuid`,
  `2026-02-31T10:00:00.000000Z|${uuid}`,
  `2026-11-20T25:00:00.000000Z|${uuid}`,
  `2026-11-20T10:00:00.000Z|${uuid}`,
  // PostgreSQL's own text of a timestamptz, which the task list answered before: one form only.
  `2026-11-20 10:00:00.000007+00|${uuid}`,
  `2026-11-20T10:00:00.000007Z|${uuid}|x`,
];

export const REFUSED_LIMITS = ['0', '101', '-1', 'abc', '1.5', '', '1e1', '1e2', '5000'];
