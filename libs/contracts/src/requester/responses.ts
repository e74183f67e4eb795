/** Response shapes of the requester API (/api/v1), field for field in the order of the Cogmint seed spec. */

/** A task ("worktask"). */
export interface TaskResponse {
  prompt: string;
  task_uuid: string;
  reward: number;
  callback_url: string | null;
  required_submissions: number;
  submission_count: number;
  /** The most recent checkout still active; null when no worker holds the task. */
  checked_out_at: string | null;
  allowed_completion_time_seconds: number;
  external_image_url: string | null;
  /** Submission UUIDs, oldest first. */
  submissions: string[];
}

/** Field order as the seed's only example (ex_cogmint's get_project!) shows it. */
export interface ProjectResponse {
  allowed_completion_time_seconds: number;
  available_task_count: number;
  average_outstanding_task_reward_cents: number;
  default_required_submissions: number;
  default_reward: number;
  display_name: string;
  display_short_description: string;
  has_published_tasks: boolean;
  lifetime_payments_to_workers_cents: number;
  name: string;
  uuid: string;
}

/** A bounding box in pixels of the original image: origin top-left, x right, y down. */
export interface Annotation {
  label: string;
  center_x: number;
  center_y: number;
  width: number;
  height: number;
}

/** A consensus box: the five annotation fields, how many workers drew it, and their mean IoU. */
export interface ConsensusAnnotation extends Annotation {
  support: number;
  agreement: number;
}

export interface WorkerSubmission {
  submission_id: string;
  /** A per-project pseudonym, never an email. */
  worker: string;
  annotations: Annotation[];
  submitted_at: string;
}

export interface TaskAnnotationsRecord {
  task_uuid: string;
  completed: boolean;
  completed_at: string | null;
  annotations: ConsensusAnnotation[];
  /** Present with `?view=submissions`. */
  submissions?: WorkerSubmission[];
}

export interface ProjectAnnotationsEntry {
  task_uuid: string;
  external_image_url: string | null;
  completed_at: string;
  annotations: ConsensusAnnotation[];
  submissions?: WorkerSubmission[];
}

/** `valid` and `production_key` are what Cogmint's own ping answers; kept for its clients. */
export interface PingResponse {
  ok: true;
  mode: 'live' | 'test';
  valid: true;
  production_key: boolean;
}
