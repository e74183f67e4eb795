/**
 * The details the worker API answers with (apps/api/src/work/lease-errors.ts) that the worker app tells
 * apart by matching them exactly (apps/web/src/api/work.api.ts): one definition, so a reworded message
 * cannot leave the app unable to recognise it.
 */
export const WORK_ERROR = {
  noTaskAvailable: 'no task available',
  checkoutNotFound: 'checkout not found',
  projectNotFound: 'project not found',
  expired: 'checkout has expired',
  released: 'checkout was released; check out a new task',
  cancelled: 'the task was cancelled by its requester',
  completed: 'the task was completed by other workers; check out a new task',
  submittedOtherwise: 'checkout was already submitted with other annotations; a submission cannot be changed',
  alreadySubmitted: 'checkout was already submitted',
} as const;
