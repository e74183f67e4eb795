import type {
  ApiKeyResponse,
  CancelOutstandingResult,
  ConsoleProjectResponse,
  ConsoleTaskDetail,
  ConsoleTaskRow,
  CreatedApiKeyResponse,
  CreateProjectBody,
  ProjectProgress,
  UpdateProjectBody,
  WebhookAttemptResponse,
  WebhookEndpointInfo,
  WebhookEventResponse,
  WebhookEventState,
  WebhookSettingsResponse,
  TaskState,
} from '@crowdbox/contracts';
import { api, apiRequest } from '../../api/client';

/** The console API (API.md §4), typed as apps/api/src/console, projects and webhooks answer it. */

export type { ConsoleTaskDetail, ConsoleTaskRow, ProjectProgress, TaskProblem, TaskState, WebhookEventState } from '@crowdbox/contracts';
export type CancelResult = CancelOutstandingResult;
export type WebhookEndpoint = WebhookEndpointInfo;
export type WebhookSettings = WebhookSettingsResponse;
export type WebhookAttempt = WebhookAttemptResponse;
export type WebhookEvent = WebhookEventResponse;

export interface TaskPage {
  data: ConsoleTaskRow[];
  next_cursor: string | null;
}

const id = encodeURIComponent;

function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

/**
 * How long a console write (save, create, cancel, revoke, rotate, redeliver) may go unanswered before it
 * counts as no answer. Without it a connection that died quietly held a busy dialog (which cannot be
 * closed while its request runs) on "Working…" for good, the page behind it out of reach. Generous: a
 * project's cancel of every outstanding task may take a while.
 */
export const CONSOLE_WRITE_TIMEOUT_MS = 60_000;

/** A console write: its `data`, or an unanswered ApiError after CONSOLE_WRITE_TIMEOUT_MS. */
async function write<T>(path: string, method: 'POST' | 'PATCH' | 'DELETE', body?: unknown): Promise<T> {
  return (await apiRequest<T>(path, { method, body, timeoutMs: CONSOLE_WRITE_TIMEOUT_MS })).data;
}

export const consoleApi = {
  projects: (signal?: AbortSignal) => api.get<ConsoleProjectResponse[]>('/api/console/projects', signal),
  project: (uuid: string, signal?: AbortSignal) => api.get<ConsoleProjectResponse>(`/api/console/projects/${id(uuid)}`, signal),
  createProject: (body: CreateProjectBody) => write<ConsoleProjectResponse>('/api/console/projects', 'POST', body),
  /** Saves over the version of the project that was read (its `updated_at`) only: a save made since elsewhere is a 409. */
  updateProject: (uuid: string, readUpdatedAt: string, body: UpdateProjectBody) =>
    write<ConsoleProjectResponse>(`/api/console/projects/${id(uuid)}`, 'PATCH', { ...body, expected_updated_at: readUpdatedAt }),
  progress: (uuid: string, signal?: AbortSignal) => api.get<ProjectProgress>(`/api/console/projects/${id(uuid)}/progress`, signal),
  /**
   * The task list keeps `next_cursor` beside `data`, so this reads the whole body. `reported` lists only
   * tasks with a worker's problem report; the API takes `true` or nothing, so false is left out.
   */
  tasks: (uuid: string, { reported, ...options }: { state?: TaskState; reported?: boolean; before?: string; limit?: number }, signal?: AbortSignal) =>
    api.getBody<TaskPage>(`/api/console/projects/${id(uuid)}/tasks${query({ ...options, reported: reported ? 'true' : undefined })}`, signal),
  task: (uuid: string, taskUuid: string, signal?: AbortSignal) =>
    api.get<ConsoleTaskDetail>(`/api/console/projects/${id(uuid)}/tasks/${id(taskUuid)}`, signal),
  resultsUrl: (uuid: string, format: 'json' | 'coco' | 'csv') => `/api/console/projects/${id(uuid)}/results?format=${format}`,
  cancelOutstanding: (uuid: string) => write<CancelResult>(`/api/console/projects/${id(uuid)}/cancel_outstanding`, 'POST', {}),
  /** Cancels one task as cancelOutstanding does every outstanding one; `cancelled` is 0 when it was already complete or cancelled. */
  cancelTask: (uuid: string, taskUuid: string) => write<CancelResult>(`/api/console/projects/${id(uuid)}/tasks/${id(taskUuid)}/cancel`, 'POST', {}),

  apiKeys: (signal?: AbortSignal) => api.get<ApiKeyResponse[]>('/api/console/api_keys', signal),
  createApiKey: (mode: 'live' | 'test') => write<CreatedApiKeyResponse>('/api/console/api_keys', 'POST', { mode }),
  revokeApiKey: (keyId: string) => write<ApiKeyResponse>(`/api/console/api_keys/${id(keyId)}`, 'DELETE'),

  webhooks: (signal?: AbortSignal) => api.get<WebhookSettings>('/api/console/webhooks', signal),
  webhookEvents: (options: { state?: WebhookEventState; before?: string }, signal?: AbortSignal) =>
    api.get<WebhookEvent[]>(`/api/console/webhooks/events${query(options)}`, signal),
  rotateSigningSecret: () => write<WebhookSettings>('/api/console/webhooks/signing-secret/rotate', 'POST', {}),
  redeliverFailed: () => write<{ redelivered: number; more: boolean }>('/api/console/webhooks/events/redeliver-failed', 'POST', {}),
  redeliver: (eventId: string) =>
    apiRequest<{ id: string; state: string }>(`/api/console/webhooks/events/${id(eventId)}/redeliver`, { method: 'POST', body: {}, timeoutMs: CONSOLE_WRITE_TIMEOUT_MS }),
};
