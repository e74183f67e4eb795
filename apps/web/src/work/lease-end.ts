import { ApiError } from '../api/client';
import { CHECKOUT_EXPIRED, TASK_CANCELLED } from '../api/work.api';

/** Why a lease ended before this page could submit it: its time ran out, or its requester cancelled the task. */
export type LeaseEnd = 'expired' | 'cancelled';

/** The end of the lease that a refused submit reports, or null for any other error (the lease may still be open). */
export function leaseEndOf(error: unknown): LeaseEnd | null {
  if (!(error instanceof ApiError) || error.status !== 422) return null;
  if (error.has(CHECKOUT_EXPIRED)) return 'expired';
  if (error.has(TASK_CANCELLED)) return 'cancelled';
  return null;
}
