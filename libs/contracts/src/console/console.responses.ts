import type { TaskAnnotationsRecord } from '../requester/responses';
import type { LabelInfo } from '../work/work.schema';
import type { TaskProblem } from '../work/task-problems';

/**
 * What the console API (API.md §4) answers, beyond projects and keys: the task list and task page,
 * project progress, cancel_outstanding, and webhooks. The API builds these and the web console reads
 * them, so both compile against this one definition.
 */

export const TASK_STATES = ['incomplete', 'complete', 'cancelled'] as const;
export type TaskState = (typeof TASK_STATES)[number];

/** A row of GET /api/console/projects/:uuid/tasks. */
export interface ConsoleTaskRow {
  task_uuid: string;
  state: TaskState;
  external_image_url: string | null;
  reward: number;
  required_submissions: number;
  submission_count: number;
  active_checkouts: number;
  /** How many workers gave the task back reporting a problem with it (docs/decisions.md "Problem reports"). */
  problem_reports: number;
  created_at: string;
  completed_at: string | null;
  cancelled_at: string | null;
}

/** GET /api/console/projects/:uuid/tasks/:task_uuid */
export interface ConsoleTaskDetail extends ConsoleTaskRow {
  prompt: string;
  labels: LabelInfo[];
  /**
   * The image size whose pixels every box of `results` is in: the size the task's first submission
   * reported (docs/decisions.md, "One frame per task"); null before any submission. A browser that
   * loads the image at another size scales the boxes by the ratio.
   */
  frame: { width: number; height: number } | null;
  /** The problems workers reported when they gave the task back, most reported first; empty when none did. */
  problems: Array<{ problem: TaskProblem; count: number; last_reported_at: string }>;
  /** Consensus boxes (empty until complete) and every worker's own boxes. */
  results: TaskAnnotationsRecord;
  /** The pseudonyms among `results.submissions`' workers that the account blocked (docs/decisions.md, "Blocking a worker"). */
  blocked_workers: string[];
  /**
   * How each worker's boxes match the consensus of the task's other workers (docs/decisions.md, "Worker
   * agreement"), the figures the project's Workers page sums; empty with fewer than two submissions.
   */
  peer_agreement: Array<{ worker: string; boxes: number; peer_boxes: number; matched: number }>;
}

/** GET /api/console/projects/:uuid/progress */
export interface ProjectProgress {
  /** `reported`: outstanding tasks that at least one worker gave back reporting a problem. */
  tasks: { total: number; complete: number; outstanding: number; cancelled: number; reported: number };
  submissions: number;
  paid_cents: number;
  /** What outstanding tasks will still pay: their missing submissions x reward. */
  committed_cents: number;
  /** Tasks created and completed per UTC day, the last 30 days, oldest first. */
  daily: Array<{ day: string; created: number; completed: number }>;
}

/** POST /api/console/projects/:uuid/cancel_outstanding */
export interface CancelOutstandingResult {
  cancelled: number;
  /** Cents that the cancelled tasks will no longer pay (their missing submissions x reward). */
  unspent_reward_cents: number;
  ended_checkouts: number;
}

export type WebhookEventState = 'pending' | 'delivered' | 'failed';

export interface WebhookEndpointInfo {
  url: string;
  state: string;
  confirmed_at: string | null;
  last_error: string | null;
  created_at: string;
}

/** GET /api/console/webhooks, and POST /api/console/webhooks/signing-secret/rotate */
export interface WebhookSettingsResponse {
  signing_secret: string;
  /** While the secret a rotation replaced still signs beside this one: until when. Null otherwise. */
  previous_secret_expires_at: string | null;
  endpoints: WebhookEndpointInfo[];
}

export interface WebhookAttemptResponse {
  attempted_at: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response_excerpt: string | null;
}

/** An entry of GET /api/console/webhooks/events */
export interface WebhookEventResponse {
  id: string;
  type: string;
  task_uuid: string | null;
  url: string | null;
  state: string;
  attempt_count: number;
  next_attempt_at: string | null;
  delivered_at: string | null;
  created_at: string;
  attempts: WebhookAttemptResponse[];
}
