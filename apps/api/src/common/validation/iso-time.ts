/**
 * An ISO 8601 date-time that PostgreSQL also reads as timestamptz: `2026-11-25T12:00:00.123Z`, or the
 * `2026-11-25 12:00:00.123456+00` PostgreSQL writes. Date.parse alone is not enough: it takes "1" as
 * 2001-01-01, which PostgreSQL refuses, so the query failed with a 500 instead of a 422.
 */
const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,6})?)?)?(?:Z|[+-](?:[01]\d|2[0-3])(?::?[0-5]\d)?)?$/i;

export function isIsoTime(value: string): boolean {
  const parts = ISO_TIME.exec(value);
  if (!parts) return false;
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  // A real day: Date.UTC rolls 2026-02-31 over into March instead of refusing it.
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
