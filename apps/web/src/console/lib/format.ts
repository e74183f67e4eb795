/** Display helpers of the console pages; money and durations are worded in shell/format.ts, for every page. */

// The browser's own time zone, named ("CEST", "GMT-4", "UTC"): the charts beside these times count UTC
// days, so a time without its zone read as UTC or as local, and was wrong one way or the other.
const dateTime = new Intl.DateTimeFormat('en-GB', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  timeZoneName: 'short',
});

/** A moment as the console words it; pages show it through <DateTime>, which adds the exact value. */
export function formatDateTime(iso: string | null | undefined): string {
  return iso ? dateTime.format(new Date(iso)) : '—';
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** A ratio as a whole percentage, "42 %"; "—" for none (a figure with nothing to count). */
export function formatPercent(ratio: number | null): string {
  return ratio === null ? '—' : `${Math.round(ratio * 100)} %`;
}

/** "a1b2c3d4…" — enough of a UUID to tell rows apart; the full value goes in a title. */
export function shortId(uuid: string): string {
  return uuid.length > 8 ? `${uuid.slice(0, 8)}…` : uuid;
}

/** "3 tasks", "1 task". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}
