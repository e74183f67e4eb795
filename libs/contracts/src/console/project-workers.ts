/**
 * How the workers of a project agree with one another (docs/decisions.md, "Worker agreement"): what a
 * requester reads to find the careless worker before blocking them (blocked-workers.ts).
 */

/** How many of a project's completed tasks, the latest, GET /api/console/projects/:uuid/workers reads. */
export const WORKER_STATS_TASKS = 1_000;

/** A row of GET /api/console/projects/:uuid/workers: one worker, over the tasks read. */
export interface ProjectWorkerRow {
  /** The worker's pseudonym in this project, as in its results. */
  worker: string;
  /** Their submissions to the tasks read. */
  submissions: number;
  last_submitted_at: string;
  /** Of those, the tasks that had other submissions too: the only ones that can be compared. */
  compared_tasks: number;
  /** On the compared tasks: the boxes they drew, the boxes of the other workers' consensus, and the pairs of the two that match. */
  boxes: number;
  peer_boxes: number;
  matched: number;
  /** 2 x matched / (boxes + peer_boxes), 3 decimals; 1 when both drew nothing; null without a compared task. */
  agreement: number | null;
  /** matched / boxes: how many of their boxes the others drew too; null when they drew none. */
  precision: number | null;
  /** matched / peer_boxes: how many of the others' boxes they drew too; null when the others drew none. */
  recall: number | null;
  /** The account's block of this worker (DELETE /api/console/blocked_workers/:id lifts it), or null. */
  block_id: string | null;
}

/** GET /api/console/projects/:uuid/workers */
export interface ProjectWorkersResponse {
  /**
   * How many completed tasks were read, newest first: WORKER_STATS_TASKS at most, fewer when their boxes
   * are so many that comparing more would take too long (docs/decisions.md, "Worker agreement").
   */
  tasks_read: number;
  /** Lowest agreement first (those without one last), then most submissions. */
  workers: ProjectWorkerRow[];
}
