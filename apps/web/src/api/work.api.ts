import {
  WORK_ERROR,
  type CheckoutResponse,
  type EarningsResponse,
  type SubmitBody,
  type SubmitResponse,
  type TaskProblem,
  type WorkProjectResponse,
  type WorkSubmissionsPage,
} from '@crowdbox/contracts';
import { api, apiRequest, type RequestOptions } from './client';
import { noteServerTime } from './server-clock';

/**
 * A project with work: `reward` is the highest reward of its tasks this worker could take, `min_reward`
 * the lowest (absent from an API that predates it).
 */
export type WorkProject = WorkProjectResponse & { min_reward?: number };

/**
 * How long a lease call (checkout, submit, Skip, the lease's state, the active leases) may go unanswered
 * before it counts as no answer, shorter than other calls' (client.ts): the page then says so and may
 * send it again, which each of them allows (a submit of the same boxes is answered with the first result,
 * a checkout with the lease already held), while the lease's time runs.
 */
export const LEASE_CALL_TIMEOUT_MS = 20_000;

/** A lease call: apiRequest, given up after LEASE_CALL_TIMEOUT_MS. */
const leaseCall = <T>(path: string, options: Omit<RequestOptions, 'timeoutMs'> = {}) =>
  apiRequest<T>(path, { ...options, timeoutMs: LEASE_CALL_TIMEOUT_MS });

const checkoutPath = (checkoutId: string, action = '') => `/api/work/checkouts/${encodeURIComponent(checkoutId)}${action}`;

/** The worker API (API.md §3). */
export const workApi = {
  projects: (signal?: AbortSignal) => api.get<WorkProject[]>('/api/work/projects', signal),
  earnings: (signal?: AbortSignal) => api.get<EarningsResponse>('/api/work/earnings', signal),
  /** Also read while a refused submit is still "Submitting…" (changed-labels.ts, too-many-boxes.ts): a lease call. */
  activeCheckouts: async (signal?: AbortSignal) => (await leaseCall<CheckoutResponse[]>('/api/work/checkouts', { signal })).data,
  /** A page of the worker's own submissions, newest first; `before` is the previous page's `next_cursor`. */
  submissions: (before: string | null, signal?: AbortSignal) =>
    api.getBody<WorkSubmissionsPage>(`/api/work/submissions${before ? `?before=${encodeURIComponent(before)}` : ''}`, signal),
  /** 201 a new lease, 200 the lease already held in that project; 404 `no task available`. */
  checkOut: async (projectUuid: string) => {
    const sentAt = Date.now();
    const result = await leaseCall<CheckoutResponse>('/api/work/checkouts', { method: 'POST', body: { project_uuid: projectUuid } });
    // A new lease's checked_out_at is the database's now() during this request, to the millisecond: the
    // clock that decides expiry. A lease held already (200) was checked out earlier and says nothing of now.
    if (result.status === 201) noteServerTime(Date.parse(result.data.checked_out_at), sentAt, Date.now());
    return result;
  },
  submit: async (checkoutId: string, body: SubmitBody) => (await leaseCall<SubmitResponse>(checkoutPath(checkoutId, '/submit'), { method: 'POST', body })).data,
  /** One lease's state (active, submitted, released, expired, cancelled, completed), read without changing it. */
  checkoutState: async (checkoutId: string) => (await leaseCall<{ checkout_id: string; state: string }>(checkoutPath(checkoutId))).data,
  /** Gives the lease back (Skip); with `problem`, says what is wrong with the task (a problem report, for its owner). */
  release: async (checkoutId: string, problem?: TaskProblem) =>
    (await leaseCall<{ checkout_id: string; state: string }>(checkoutPath(checkoutId, '/release'), { method: 'POST', body: problem ? { problem } : {} })).data,
};

// The details the worker API answers with, matched exactly (one definition: libs/contracts WORK_ERROR).
export const NO_TASK_AVAILABLE = WORK_ERROR.noTaskAvailable;
export const CHECKOUT_EXPIRED = WORK_ERROR.expired;
export const TASK_CANCELLED = WORK_ERROR.cancelled;
/** Submit of a lease taken as another ran out, whose late submit completed the task. */
export const TASK_COMPLETED = WORK_ERROR.completed;
/** Submit of a lease given back (Skip, perhaps in another tab). */
export const CHECKOUT_RELEASED = WORK_ERROR.released;
/** Submit with boxes other than those of the submission already made (the same body again replays it). */
export const ALREADY_SUBMITTED_OTHERWISE = WORK_ERROR.submittedOtherwise;
/** Release of a submitted checkout. */
export const ALREADY_SUBMITTED = WORK_ERROR.alreadySubmitted;
