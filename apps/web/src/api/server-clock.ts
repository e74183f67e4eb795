/**
 * The server's clock as the browser knows it, for countdowns to server deadlines (a lease's expires_at).
 *
 * A reply tells server time only within bounds: the server read its clock at some moment between the
 * request leaving (`sentAt`) and the reply arriving (`receivedAt`), so server time minus browser time lies
 * in [serverMs - receivedAt, serverMs + resolution - sentAt]. Readings narrow that range; one that does not
 * overlap it means a clock was set meanwhile, and the newest reading starts over. The offset used is the
 * top of the range, so a countdown ends early rather than late: the server refuses a submit even 1 ms late.
 */
interface OffsetRange {
  low: number;
  high: number;
}

let range: OffsetRange | null = null;

/**
 * Notes that the server's clock read `serverMs` while a request was out. `resolutionMs`: how much the
 * reading may be below the truth (1000 for an HTTP Date header, which drops the milliseconds).
 */
export function noteServerTime(serverMs: number, sentAt: number, receivedAt: number, resolutionMs = 0): void {
  if (!Number.isFinite(serverMs)) return;
  const reading = { low: serverMs - receivedAt, high: serverMs + resolutionMs - sentAt };
  const low = Math.max(reading.low, range?.low ?? -Infinity);
  const high = Math.min(reading.high, range?.high ?? Infinity);
  range = range && low <= high ? { low, high } : reading;
}

/** Server time minus browser time, at the most the readings allow (0 before any reply). */
export function serverClockOffset(): number {
  return range?.high ?? 0;
}

/** Forgets every reading (tests). */
export function resetServerClock(): void {
  range = null;
}
