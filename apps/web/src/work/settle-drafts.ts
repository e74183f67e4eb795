import { ApiError } from '../api/client';
import { workApi } from '../api/work.api';
import { clearDraft, type Draft } from './draft-store';
import type { LeaseEnd, LeaseOutcome } from './lease-end';

/** What the server said of leftover drafts' leases; drafts whose fate it could not tell are kept. */
export interface SettledDrafts {
  /** The leases that ended unsubmitted (time ran out, the task was cancelled or completed by others), and their boxes. */
  lost: LeaseEnd[];
  lostBoxes: number;
  /** How many had been submitted after all (a submit whose reply was lost, a reload during a submit). */
  submitted: number;
}

// The states the server gives a lease, and 'unknown' (not this worker's lease) or 'keep' (no answer, or still active).
type Fate = LeaseOutcome | 'released' | 'unknown' | 'keep';

/** Asks the server what became of a draft's lease (GET /api/work/checkouts/:id, which changes nothing). */
async function fateOf(draft: Draft): Promise<Fate> {
  try {
    const { state } = await workApi.checkoutState(draft.checkout_id);
    if (state === 'expired' || state === 'cancelled' || state === 'released' || state === 'completed' || state === 'submitted') return state;
    // Still active (another tab holds it, or it came back meanwhile): its page owns the draft.
    return 'keep';
  } catch (error) {
    // Not found (the API's own 404, not a proxy's): not a lease of this user's any more; nothing to report.
    // No answer: ask again next time.
    return error instanceof ApiError && error.status === 404 && error.fromApi ? 'unknown' : 'keep';
  }
}

// One question per draft at a time: StrictMode's double effect shares it instead of asking twice.
const inFlight = new Map<string, Promise<Fate>>();
function settle(userId: string, draft: Draft): Promise<Fate> {
  const key = `${userId}:${draft.checkout_id}`;
  let pending = inFlight.get(key);
  if (!pending) {
    pending = fateOf(draft)
      .then((fate) => {
        if (fate !== 'keep') clearDraft(userId, draft.checkout_id);
        return fate;
      })
      .finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  return pending;
}

/**
 * Settles drafts of leases that are no longer active (they were left by a reload, a crash, a lost
 * reply): a draft is called lost only when the server says its lease ended unsubmitted by time, by the
 * requester, or by other workers completing the task. A lease the worker gave back (Skip) is dropped
 * quietly, and so is one submitted.
 */
export async function settleDrafts(userId: string, drafts: Draft[]): Promise<SettledDrafts> {
  const fates = await Promise.all(drafts.map((d) => settle(userId, d)));
  const result: SettledDrafts = { lost: [], lostBoxes: 0, submitted: 0 };
  fates.forEach((fate, i) => {
    if (fate === 'expired' || fate === 'cancelled' || fate === 'completed') {
      result.lost.push(fate);
      result.lostBoxes += drafts[i].boxes.length;
    } else if (fate === 'submitted') {
      result.submitted++;
    }
  });
  return result;
}
