import type { SendOutcome } from './webhook-sender';

export type Verdict = 'delivered' | 'retry' | 'failed';

/**
 * API.md §2: a 2xx is success; no reply (network error, timeout), 408, 425, 429 and 5xx are retried;
 * any other status (other 4xx, 3xx since redirects are not followed, and anything outside 100-599 that
 * a receiver may send) ends the event as failed.
 */
export function verdictOf(outcome: SendOutcome): Verdict {
  const status = outcome.status;
  if (status === undefined) return 'retry';
  if (status >= 200 && status < 300) return 'delivered';
  if (status === 408 || status === 425 || status === 429 || (status >= 500 && status <= 599)) return 'retry';
  return 'failed';
}

export interface RetrySchedule {
  /** Delay before retry n (0-based), in seconds. */
  delaysSeconds: readonly number[];
  retryAfterMaxSeconds: number;
}

/**
 * The delay before the next attempt after `attemptsSoFar` failed ones, or undefined when the schedule
 * is exhausted. ±10 % jitter spreads retries of many events to one receiver; a Retry-After (up to the
 * maximum) wins over the schedule when it asks for longer.
 */
export function nextDelayMs(
  attemptsSoFar: number,
  schedule: RetrySchedule,
  retryAfterMs?: number,
  random: () => number = Math.random,
): number | undefined {
  const base = schedule.delaysSeconds[attemptsSoFar - 1];
  if (base === undefined) return undefined;
  const jittered = base * 1000 * (0.9 + 0.2 * random());
  const asked = retryAfterMs === undefined ? 0 : Math.min(retryAfterMs, schedule.retryAfterMaxSeconds * 1000);
  return Math.round(Math.max(jittered, asked));
}
