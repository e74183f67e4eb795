import type {
  ApiKeyResponse,
  ConsoleProjectResponse,
  CreatedApiKeyResponse,
  CreateProjectBody,
  LabelInfo,
  TaskAnnotationsRecord,
  UpdateProjectBody,
} from '@crowdbox/contracts';
import { api, apiRequest } from '../../api/client';

/** The console API (API.md §4), typed as apps/api/src/console, projects and webhooks answer it. */

export type TaskState = 'incomplete' | 'complete' | 'cancelled';

export interface ConsoleTaskRow {
  task_uuid: string;
  state: TaskState;
  external_image_url: string | null;
  reward: number;
  required_submissions: number;
  submission_count: number;
  active_checkouts: number;
  created_at: string;
  completed_at: string | null;
  cancelled_at: string | null;
}

export interface ConsoleTaskDetail extends ConsoleTaskRow {
  prompt: string;
  labels: LabelInfo[];
  results: TaskAnnotationsRecord;
}

export interface ProjectProgress {
  tasks: { total: number; complete: number; outstanding: number; cancelled: number };
  submissions: number;
  paid_cents: number;
  committed_cents: number;
  daily: Array<{ day: string; created: number; completed: number }>;
}

export interface TaskPage {
  data: ConsoleTaskRow[];
  next_cursor: string | null;
}

export interface CancelResult {
  cancelled: number;
  unspent_reward_cents: number;
  ended_checkouts: number;
}

export interface WebhookEndpoint {
  url: string;
  state: string;
  confirmed_at: string | null;
  last_error: string | null;
  created_at: string;
}

export interface WebhookSettings {
  signing_secret: string;
  endpoints: WebhookEndpoint[];
}

export interface WebhookAttempt {
  attempted_at: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response_excerpt: string | null;
}

export interface WebhookEvent {
  id: string;
  type: string;
  task_uuid: string | null;
  url: string | null;
  state: string;
  attempt_count: number;
  next_attempt_at: string | null;
  delivered_at: string | null;
  created_at: string;
  attempts: WebhookAttempt[];
}

export type WebhookEventState = 'pending' | 'delivered' | 'failed';

const id = encodeURIComponent;

function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

export const consoleApi = {
  projects: (signal?: AbortSignal) => api.get<ConsoleProjectResponse[]>('/api/console/projects', signal),
  project: (uuid: string, signal?: AbortSignal) => api.get<ConsoleProjectResponse>(`/api/console/projects/${id(uuid)}`, signal),
  createProject: (body: CreateProjectBody) => api.post<ConsoleProjectResponse>('/api/console/projects', body),
  updateProject: (uuid: string, body: UpdateProjectBody) => api.patch<ConsoleProjectResponse>(`/api/console/projects/${id(uuid)}`, body),
  progress: (uuid: string, signal?: AbortSignal) => api.get<ProjectProgress>(`/api/console/projects/${id(uuid)}/progress`, signal),
  /** The task list keeps `next_cursor` beside `data`, so this reads the whole body. */
  tasks: (uuid: string, options: { state?: TaskState; before?: string; limit?: number }, signal?: AbortSignal) =>
    api.getBody<TaskPage>(`/api/console/projects/${id(uuid)}/tasks${query(options)}`, signal),
  task: (uuid: string, taskUuid: string, signal?: AbortSignal) =>
    api.get<ConsoleTaskDetail>(`/api/console/projects/${id(uuid)}/tasks/${id(taskUuid)}`, signal),
  resultsUrl: (uuid: string, format: 'json' | 'coco') => `/api/console/projects/${id(uuid)}/results?format=${format}`,
  cancelOutstanding: (uuid: string) => api.post<CancelResult>(`/api/console/projects/${id(uuid)}/cancel_outstanding`),

  apiKeys: (signal?: AbortSignal) => api.get<ApiKeyResponse[]>('/api/console/api_keys', signal),
  createApiKey: (mode: 'live' | 'test') => api.post<CreatedApiKeyResponse>('/api/console/api_keys', { mode }),
  revokeApiKey: (keyId: string) => api.delete<ApiKeyResponse>(`/api/console/api_keys/${id(keyId)}`),

  webhooks: (signal?: AbortSignal) => api.get<WebhookSettings>('/api/console/webhooks', signal),
  webhookEvents: (options: { state?: WebhookEventState; before?: string }, signal?: AbortSignal) =>
    api.get<WebhookEvent[]>(`/api/console/webhooks/events${query(options)}`, signal),
  redeliver: (eventId: string) => apiRequest<{ id: string; state: string }>(`/api/console/webhooks/events/${id(eventId)}/redeliver`, { method: 'POST', body: {} }),
};
