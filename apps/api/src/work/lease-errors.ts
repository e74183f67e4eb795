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
} as const;

export const workErrors = {
  noTaskAvailable: () => ApiException.notFound('no task available'),
  checkoutNotFound: () => ApiException.notFound('checkout not found'),
  projectNotFound: () => ApiException.notFound('project not found'),
  expired: () => ApiException.unprocessable('root', 'checkout has expired'),
  released: () => ApiException.unprocessable('root', 'checkout was released; check out a new task'),
  cancelled: () => ApiException.unprocessable('root', 'the task was cancelled by its requester'),
  completed: () => ApiException.unprocessable('root', 'the task was completed by other workers; check out a new task'),
  alreadySubmitted: () =>
    ApiException.unprocessable('root', 'checkout was already submitted with other annotations; a submission cannot be changed'),
};
