import { ApiError } from '../api/client';
import { ALREADY_SUBMITTED, ALREADY_SUBMITTED_OTHERWISE, CHECKOUT_EXPIRED, CHECKOUT_RELEASED, TASK_CANCELLED, TASK_COMPLETED } from '../api/work.api';

/**
 * Why a lease ended before this page could submit it: its time ran out, its requester cancelled the
 * task, the worker gave it back elsewhere (Skip in another tab), or other workers completed the task
 * (a rare race: this lease was taken the instant another ran out, and that one's submit still counted).
 */
export type LeaseEnd = 'expired' | 'cancelled' | 'released' | 'completed';

/** What became of a lease this page can no longer act on: ended unsubmitted, or submitted already. */
export type LeaseOutcome = LeaseEnd | 'submitted';

/**
 * The outcome that a refused submit or release reports, or null for any other error (the lease may
 * still be open). `submitted` comes from a submit whose earlier copy reached the server though its
 * reply was lost (a network error, a reload) and whose boxes were edited since, or from a release of
 * such a lease.
 */
export function leaseOutcomeOf(error: unknown): LeaseOutcome | null {
  if (!(error instanceof ApiError) || error.status !== 422) return null;
  if (error.has(CHECKOUT_EXPIRED)) return 'expired';
  if (error.has(TASK_CANCELLED)) return 'cancelled';
  if (error.has(CHECKOUT_RELEASED)) return 'released';
  if (error.has(TASK_COMPLETED)) return 'completed';
  if (error.has(ALREADY_SUBMITTED_OTHERWISE) || error.has(ALREADY_SUBMITTED)) return 'submitted';
  return null;
}

const BECAUSE: Record<LeaseEnd, string> = {
  expired: 'time ran out',
  cancelled: 'the requester cancelled it',
  released: 'it was given back',
  completed: 'other workers completed it',
};

/** Why leases ended unsubmitted, for a message: null when there were several reasons. */
export function endedBecause(ends: LeaseEnd[]): string | null {
  const reasons = new Set(ends);
  if (reasons.size !== 1) return null;
  return BECAUSE[ends[0]];
}
