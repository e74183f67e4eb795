/**
 * Display helpers of every page, the worker's and the console's: one wording each, so the console's
 * preview of a task says what the worker will see. Money is held in integer cents everywhere.
 */

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** Cents as money: 25 -> "$0.25", 123456 -> "$1,234.56". */
export function formatCents(cents: number): string {
  return money.format(cents / 100);
}

/** A duration for people: 90 -> "1 min 30 s", 3600 -> "1 h". */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.round(totalSeconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const parts: string[] = [];
  if (h) parts.push(`${h} h`);
  if (m) parts.push(`${m} min`);
  if (sec || parts.length === 0) parts.push(`${sec} s`);
  return parts.join(' ');
}

/** A countdown clock: 75 -> "1:15", 3725 -> "1:02:05". */
export function formatClock(totalSeconds: number): string {
  const s = Math.max(0, Math.ceil(totalSeconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}
