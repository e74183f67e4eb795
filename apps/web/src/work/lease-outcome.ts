import { ApiError } from '../api/client';
import { workApi } from '../api/work.api';
import type { LeaseOutcome } from './lease-end';

const OUTCOMES: readonly string[] = ['submitted', 'expired', 'cancelled', 'released', 'completed'] satisfies LeaseOutcome[];

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A lease's state as how it ended; null while it is active. */
const ended = (state: string): LeaseOutcome | null => (OUTCOMES.includes(state) ? (state as LeaseOutcome) : null);

/**
 * What became of a lease whose last submit got no answer, once the page's countdown has ended it: read
 * back (GET /api/work/checkouts/:id, which changes nothing) until the server no longer holds it active.
 * The page's deadline comes a little before the server's (SUBMIT_MARGIN_MS), and a submit may still be on
 * its way, so `active` is asked again until the server's own deadline has passed and it answers
 * `submitted` or `expired`. Null when the server could not say (no answer, or not this worker's lease).
 */
export async function leaseOutcomeOnceEnded(checkoutId: string, { tries = 15, intervalMs = 1000 } = {}): Promise<LeaseOutcome | null> {
  for (let i = 0; i < tries; i++) {
    try {
      const outcome = ended((await workApi.checkoutState(checkoutId)).state);
      if (outcome) return outcome;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404 && error.fromApi) return null;
    }
    await wait(intervalMs);
  }
  return null;
}

/** How the lease has ended, read now (GET /api/work/checkouts/:id, which changes nothing); null while it is active, or when the server did not say. */
export async function leaseOutcomeNow(checkoutId: string): Promise<LeaseOutcome | null> {
  try {
    return ended((await workApi.checkoutState(checkoutId)).state);
  } catch {
    return null;
  }
}
