import { ApiError } from '../api/client';
import { ALREADY_SUBMITTED, ALREADY_SUBMITTED_OTHERWISE, CHECKOUT_EXPIRED, TASK_CANCELLED } from '../api/work.api';

/** Why a lease ended before this page could submit it: its time ran out, or its requester cancelled the task. */
export type LeaseEnd = 'expired' | 'cancelled';

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
  if (error.has(ALREADY_SUBMITTED_OTHERWISE) || error.has(ALREADY_SUBMITTED)) return 'submitted';
  return null;
}

/** Why leases ended unsubmitted, for a message: null when there were several reasons. */
export function endedBecause(ends: LeaseEnd[]): string | null {
  const reasons = new Set(ends);
  if (reasons.size !== 1) return null;
  return reasons.has('expired') ? 'time ran out' : 'the requester cancelled it';
}
