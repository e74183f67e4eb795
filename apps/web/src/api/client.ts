import type { ErrorBody, ErrorItem } from '@crowdbox/contracts';
import { noteServerTime } from './server-clock';

/**
 * A failed API call: the HTTP status and the API's `{errors:[{field, detail}]}` body. A network
 * failure or a reply that is not the error shape becomes status 0 / the status with one `root` item,
 * so callers always have something to show; `fromApi` is false for those (the API did not say it).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errors: ErrorItem[],
    readonly fromApi = true,
  ) {
    super(errors.map((e) => (e.field && e.field !== 'root' ? `${e.field}: ${e.detail}` : e.detail)).join('; ') || `HTTP ${status}`);
    this.name = 'ApiError';
  }

  /** The detail for one field (dotted path), if the API named it. */
  fieldError(field: string): string | undefined {
    return this.errors.find((e) => e.field === field)?.detail;
  }

  /** True when one of the errors carries exactly this detail (e.g. `checkout has expired`). */
  has(detail: string): boolean {
    return this.errors.some((e) => e.detail === detail);
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /**
   * Gives the request up when its answer has not come in whole within this long, failing as unanswered
   * (status 0) like a dropped connection: without it a connection that died quietly left the page
   * waiting for ever (fetch has no timeout of its own). READ_TIMEOUT_MS for a GET, WRITE_TIMEOUT_MS for
   * the rest, unless a call says otherwise (the worker's lease calls: work.api.ts).
   */
  timeoutMs?: number;
}

/**
 * How long a read may take before it is given up as unanswered, so a page on a connection that died
 * quietly shows its error and Try again instead of "Loading…" for good. Above the server's own 30 s
 * limit on a statement (DATABASE_STATEMENT_TIMEOUT_MS), so a slow read that is still alive gets the
 * server's answer first.
 */
export const READ_TIMEOUT_MS = 40_000;

/**
 * How long a write (a console save, create, cancel, revoke, rotate or redeliver; a log-in, sign-up or
 * password change) may go unanswered: without it a busy dialog, which cannot be closed while its request
 * runs, stayed on "Working…" for good. Generous: a project's cancel of every outstanding task may take a while.
 */
export const WRITE_TIMEOUT_MS = 60_000;

/**
 * The result of a call: the unwrapped `data`, the status (201 vs 200 matters for checkouts), and the whole
 * parsed body `B` for the few replies that carry more beside `data` (the console task list's `next_cursor`).
 */
export interface ApiResult<T, B = { data: T }> {
  data: T;
  body: B;
  status: number;
}

let onUnauthorized: (() => void) | null = null;

/**
 * Called when an API call outside /api/session answers 401: the session ended (expired, logged out in
 * another tab). The session provider registers itself here so the app can send the user to log in.
 */
export function setUnauthorizedHandler(handler: (() => void) | null): void {
  onUnauthorized = handler;
}

/** One call to the Crowdbox API from the browser: JSON in and out, the session cookie included. */
export async function apiRequest<T, B = { data: T }>(path: string, options: RequestOptions = {}): Promise<ApiResult<T, B>> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const method = options.method ?? 'GET';
  // The timeout aborts a signal of its own, which the caller's abort is passed on to (not AbortSignal.any:
  // Safari before 17.4 lacks it, and the call would throw there).
  const controller = new AbortController();
  const caller = options.signal;
  if (caller?.aborted) controller.abort(caller.reason);
  caller?.addEventListener('abort', () => controller.abort(caller.reason), { once: true });
  let timedOut = false;
  const timer = setTimeout(
    () => {
      timedOut = true;
      controller.abort();
    },
    options.timeoutMs ?? (method === 'GET' ? READ_TIMEOUT_MS : WRITE_TIMEOUT_MS),
  );
  let res: Response;
  let text: string;
  const sentAt = Date.now();
  try {
    res = await fetch(path, { method, headers, body, credentials: 'include', signal: controller.signal });
    // Whole seconds, rounded down; the only reading of the server's clock most replies carry.
    noteServerTime(Date.parse(res.headers.get('date') ?? ''), sentAt, Date.now(), 1000);
    text = await res.text();
  } catch (error) {
    // The caller's abort is the caller's; a timeout is no answer, as is a connection that failed.
    if (error instanceof DOMException && error.name === 'AbortError' && !timedOut) throw error;
    throw new ApiError(0, [{ field: 'root', detail: 'The server could not be reached. Check your connection and try again.' }], false);
  } finally {
    clearTimeout(timer);
  }
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (!res.ok) {
    if (res.status === 401 && !path.startsWith('/api/session/')) onUnauthorized?.();
    const errors = (json as ErrorBody | undefined)?.errors;
    if (Array.isArray(errors) && errors.length > 0) throw new ApiError(res.status, errors);
    // A proxy's or gateway's page (502, 504…), not the API's answer.
    throw new ApiError(res.status, [{ field: 'root', detail: `The server answered ${res.status} ${res.statusText}`.trim() }], false);
  }
  return { data: (json as { data: T } | undefined)?.data as T, body: json as B, status: res.status };
}

/** Shorthands that return only `data`, and `getBody` for a reply read whole. */
export const api = {
  get: async <T>(path: string, signal?: AbortSignal): Promise<T> => (await apiRequest<T>(path, { signal })).data,
  /** A GET whose reply carries more than `data` (e.g. `{data, next_cursor}`): the whole body, typed `B`. */
  getBody: async <B extends { data: unknown }>(path: string, signal?: AbortSignal): Promise<B> =>
    (await apiRequest<B['data'], B>(path, { signal })).body,
  post: async <T>(path: string, body: unknown = {}, signal?: AbortSignal): Promise<T> =>
    (await apiRequest<T>(path, { method: 'POST', body, signal })).data,
  patch: async <T>(path: string, body: unknown): Promise<T> => (await apiRequest<T>(path, { method: 'PATCH', body })).data,
  delete: async <T>(path: string): Promise<T> => (await apiRequest<T>(path, { method: 'DELETE' })).data,
};

/**
 * A request whose fate is unknown: no answer at all (status 0), or a 5xx that is not the API's own error
 * (a proxy's 502/503/504 page): the server may have acted on it before the answer was lost.
 */
export function mayHaveArrived(error: unknown): boolean {
  return error instanceof ApiError && !error.fromApi && (error.status === 0 || error.status >= 500);
}

/** Any thrown value as a list of `{field, detail}` to show. */
export function errorItems(error: unknown): ErrorItem[] {
  if (error instanceof ApiError) return error.errors;
  if (error instanceof Error) return [{ field: 'root', detail: error.message }];
  return [{ field: 'root', detail: String(error) }];
}
