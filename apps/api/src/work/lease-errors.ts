import { WORK_ERROR } from '@crowdbox/contracts';
import { ApiException } from '../common/errors/api.exception';

/** SQLSTATEs raised by the lease triggers (database/migrations/1763900000000-leases.ts). */
export const LEASE_SQLSTATE = {
  taskClosed: 'CB001',
  noFreeSlot: 'CB002',
  leaseTransition: 'CB004',
  submissionMismatch: 'CB005',
  leaseNotActive: 'CB006',
  /** The worker already holds a live lease in the task's project (migration 1765600000000). */
  leaseHeldInProject: 'CB008',
  /** The task's account blocked the worker, in a block that committed while this lease waited (migration 1767100000000). */
  workerBlocked: 'CB009',
} as const;

export const workErrors = {
  noTaskAvailable: () => ApiException.notFound(WORK_ERROR.noTaskAvailable),
  checkoutNotFound: () => ApiException.notFound(WORK_ERROR.checkoutNotFound),
  projectNotFound: () => ApiException.notFound(WORK_ERROR.projectNotFound),
  expired: () => ApiException.unprocessable('root', WORK_ERROR.expired),
  released: () => ApiException.unprocessable('root', WORK_ERROR.released),
  cancelled: () => ApiException.unprocessable('root', WORK_ERROR.cancelled),
  completed: () => ApiException.unprocessable('root', WORK_ERROR.completed),
  alreadySubmitted: () => ApiException.unprocessable('root', WORK_ERROR.submittedOtherwise),
  /** Release of a submitted checkout. */
  releaseSubmitted: () => ApiException.unprocessable('root', WORK_ERROR.alreadySubmitted),
};
