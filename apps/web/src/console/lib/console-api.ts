import type {
  ApiKeyResponse,
  BlockedWorkerResponse,
  BlockWorkerResult,
  CancelOutstandingResult,
  ConsoleProjectResponse,
  ConsoleProjectsPage,
  ConsoleTaskDetail,
  ConsoleTaskRow,
  CreatedApiKeyResponse,
  CreateProjectBody,
  ProjectProgress,
  ProjectWorkersResponse,
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

export type { BlockedWorkerResponse, BlockWorkerResult, ProjectWorkerRow, ProjectWorkersResponse } from '@crowdbox/contracts';
export type { ConsoleProjectsPage } from '@crowdbox/contracts';
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

export const consoleApi = {
  /**
   * A page of the account's projects, newest first: `archived` true for the archived ones, false for
   * those in use, left out for both. The page keeps `next_cursor` and the account's `counts` beside
   * `data`, so this reads the whole body, as `tasks` does.
   */
  projects: ({ archived, ...options }: { archived?: boolean; before?: string; limit?: number }, signal?: AbortSignal) =>
    api.getBody<ConsoleProjectsPage>(`/api/console/projects${query({ ...options, archived: archived === undefined ? undefined : String(archived) })}`, signal),
  project: (uuid: string, signal?: AbortSignal) => api.get<ConsoleProjectResponse>(`/api/console/projects/${id(uuid)}`, signal),
  /** With `idempotencyKey`, the same body sent again with it answers the project the first made (for 24 h). */
  createProject: async (body: CreateProjectBody, idempotencyKey?: string) =>
    (await apiRequest<ConsoleProjectResponse>('/api/console/projects', { method: 'POST', body, headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : undefined })).data,
  /** Saves over the version of the project that was read (its `updated_at`) only: a save made since elsewhere is a 409. */
  updateProject: (uuid: string, readUpdatedAt: string, body: UpdateProjectBody) =>
    api.patch<ConsoleProjectResponse>(`/api/console/projects/${id(uuid)}`, { ...body, expected_updated_at: readUpdatedAt }),
  progress: (uuid: string, signal?: AbortSignal) => api.get<ProjectProgress>(`/api/console/projects/${id(uuid)}/progress`, signal),
  /**
   * The task list keeps `next_cursor` beside `data`, so this reads the whole body. `reported` lists only
   * tasks with a worker's problem report; the API takes `true` or nothing, so false is left out. `worker`
   * (a pseudonym) lists the tasks that worker submitted to; a name that is not one is refused on `worker`.
   */
  tasks: (uuid: string, { reported, ...options }: { state?: TaskState; reported?: boolean; worker?: string; before?: string; limit?: number }, signal?: AbortSignal) =>
    api.getBody<TaskPage>(`/api/console/projects/${id(uuid)}/tasks${query({ ...options, reported: reported ? 'true' : undefined })}`, signal),
  task: (uuid: string, taskUuid: string, signal?: AbortSignal) =>
    api.get<ConsoleTaskDetail>(`/api/console/projects/${id(uuid)}/tasks/${id(taskUuid)}`, signal),
  resultsUrl: (uuid: string, format: 'json' | 'coco' | 'csv') => `/api/console/projects/${id(uuid)}/results?format=${format}`,
  cancelOutstanding: (uuid: string) => api.post<CancelResult>(`/api/console/projects/${id(uuid)}/cancel_outstanding`),
  /** Archives the project: its outstanding tasks are cancelled with it; an archived project is answered as it is. */
  archiveProject: (uuid: string) => api.post<ConsoleProjectResponse>(`/api/console/projects/${id(uuid)}/archive`),
  /** Takes the project out of the archive; the tasks the archive cancelled stay cancelled. */
  unarchiveProject: (uuid: string) => api.post<ConsoleProjectResponse>(`/api/console/projects/${id(uuid)}/unarchive`),
  /** Cancels one task as cancelOutstanding does every outstanding one; `cancelled` is 0 when it was already complete or cancelled. */
  cancelTask: (uuid: string, taskUuid: string) => api.post<CancelResult>(`/api/console/projects/${id(uuid)}/tasks/${id(taskUuid)}/cancel`),

  apiKeys: (signal?: AbortSignal) => api.get<ApiKeyResponse[]>('/api/console/api_keys', signal),
  createApiKey: (mode: 'live' | 'test') => api.post<CreatedApiKeyResponse>('/api/console/api_keys', { mode }),
  revokeApiKey: (keyId: string) => api.delete<ApiKeyResponse>(`/api/console/api_keys/${id(keyId)}`),

  /** Blocks the worker of `worker` (its pseudonym in this project) from every project of the account; `created` is false when it was already blocked. */
  blockWorker: (uuid: string, worker: string) => api.post<BlockWorkerResult>(`/api/console/projects/${id(uuid)}/workers/${id(worker)}/block`),
  /** How each worker of the project agrees with the others on the latest completed tasks, lowest agreement first. */
  projectWorkers: (uuid: string, signal?: AbortSignal) => api.get<ProjectWorkersResponse>(`/api/console/projects/${id(uuid)}/workers`, signal),
  blockedWorkers: (signal?: AbortSignal) => api.get<BlockedWorkerResponse[]>('/api/console/blocked_workers', signal),
  unblockWorker: (blockId: string) => api.delete<BlockedWorkerResponse>(`/api/console/blocked_workers/${id(blockId)}`),

  webhooks: (signal?: AbortSignal) => api.get<WebhookSettings>('/api/console/webhooks', signal),
  webhookEvents: (options: { state?: WebhookEventState; before?: string }, signal?: AbortSignal) =>
    api.get<WebhookEvent[]>(`/api/console/webhooks/events${query(options)}`, signal),
  rotateSigningSecret: () => api.post<WebhookSettings>('/api/console/webhooks/signing-secret/rotate'),
  redeliverFailed: () => api.post<{ redelivered: number; more: boolean }>('/api/console/webhooks/events/redeliver-failed'),
  redeliver: (eventId: string) => apiRequest<{ id: string; state: string }>(`/api/console/webhooks/events/${id(eventId)}/redeliver`, { method: 'POST', body: {} }),
};
