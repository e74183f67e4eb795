import type { ApiKeyResponse } from '../console/api-key.schema';
import type { BlockedWorkerResponse } from '../console/blocked-workers';
import type { WebhookEndpointInfo } from '../console/console.responses';
import type { ConsoleProjectResponse } from '../console/project.schema';
import type { Annotation } from '../requester/responses';
import type { SessionInfo, UserResponse } from './session.schema';

/** The `format` of an account's data file; a change of its shape names a new one. */
export const ACCOUNT_EXPORT_FORMAT = 'crowdbox-account-export/1';

/** One submission the user made as a worker, with the boxes as they were sent (in the task's frame). */
export interface AccountExportSubmission {
  submission_id: string;
  submitted_at: string;
  project: { uuid: string; display_name: string };
  task_uuid: string;
  image_width: number;
  image_height: number;
  boxes: Annotation[];
  /** US cents, as credited at submit. */
  reward: number;
}

/**
 * GET /api/session/export: what Crowdbox keeps about the signed-in user and their account, as one JSON
 * file (docs/decisions.md, "Downloading your data"). Secrets are left out: key hashes, the password
 * hash, session tokens and the webhook signing secret.
 */
export interface AccountExport {
  format: typeof ACCOUNT_EXPORT_FORMAT;
  exported_at: string;
  user: UserResponse;
  account: { id: string; name: string; created_at: string };
  /** As `GET /api/session/sessions` lists them. */
  sessions: SessionInfo[];
  api_keys: ApiKeyResponse[];
  projects: ConsoleProjectResponse[];
  webhook_endpoints: WebhookEndpointInfo[];
  blocked_workers: BlockedWorkerResponse[];
  /** Newest first; streamed last, so the file can hold any number. */
  submissions: AccountExportSubmission[];
}
