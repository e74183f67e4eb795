/**
 * Blocking a worker (docs/decisions.md, "Blocking a worker"): a requester who finds a worker's boxes
 * careless or malicious stops that worker from getting any more of the account's tasks. Requesters know
 * a worker only by the per-project pseudonym of the results (`worker_…`), so a block is made through a
 * project in which the worker submitted, and is listed with that project and pseudonym.
 */

/** A row of GET /api/console/blocked_workers, and the answer of DELETE /api/console/blocked_workers/:id. */
export interface BlockedWorkerResponse {
  /** The block's own id: what DELETE /api/console/blocked_workers/:id takes. */
  id: string;
  /** The worker's pseudonym in `project` (the one its results show). */
  worker: string;
  /** The project through which the worker was blocked. */
  project: { uuid: string; display_name: string };
  blocked_at: string;
}

/** POST /api/console/projects/:uuid/workers/:worker/block */
export interface BlockWorkerResult extends BlockedWorkerResponse {
  /** False when the worker was blocked already: the existing block is answered, nothing changes. */
  created: boolean;
  /** The worker's active leases on the account's tasks that the block ended (their slots are free again). */
  ended_checkouts: number;
}

/** A worker's per-project pseudonym as results show it (`worker_` and 12 hex digits), and nothing else. */
export const WORKER_PSEUDONYM = /^worker_[0-9a-f]{12}$/;

/** How many workers one account may block (422 beyond): the list is one page. */
export const MAX_BLOCKED_WORKERS = 1_000;
