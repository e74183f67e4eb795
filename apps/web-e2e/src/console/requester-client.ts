import { randomBytes } from 'node:crypto';

/**
 * What the test does as a requester's program and as workers: plain HTTP to the test server (Node's
 * fetch), exactly as outside clients do, never through the browser.
 */
export interface Box {
  label: string;
  center_x: number;
  center_y: number;
  width: number;
  height: number;
}

async function call<T>(baseUrl: string, method: string, path: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; data: T }> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { data: T; errors?: unknown };
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(json)}`);
  return { status: res.status, data: json.data };
}

export async function addTask(baseUrl: string, apiKey: string, task: Record<string, unknown>): Promise<string> {
  const { status, data } = await call<{ task_uuid: string }>(baseUrl, 'POST', '/api/v1/projects/add_task', { task }, { apikey: apiKey });
  if (status !== 201) throw new Error(`add_task answered ${status}`);
  return data.task_uuid;
}

export interface Worker {
  name: string;
  auth: Record<string, string>;
}

export async function signUpWorker(baseUrl: string, name: string): Promise<Worker> {
  const email = `${name.toLowerCase().replace(/\W+/g, '-')}-${randomBytes(3).toString('hex')}@example.com`;
  const { data } = await call<{ token: string }>(baseUrl, 'POST', '/api/session/signup', { email, password: 'correct horse battery', name }, {});
  return { name, auth: { authorization: `Bearer ${data.token}` } };
}

/** Checks out the next task of the project: the checkout's id and the task's UUID. */
export async function checkOutNext(baseUrl: string, worker: Worker, projectUuid: string): Promise<{ checkout_id: string; task_uuid: string }> {
  const { data } = await call<{ checkout_id: string; task_uuid: string }>(baseUrl, 'POST', '/api/work/checkouts', { project_uuid: projectUuid }, worker.auth);
  return data;
}

/** Submits `boxes` on a checkout; the API's status and body, refusals included. */
export async function submitBoxes(baseUrl: string, worker: Worker, checkoutId: string, boxes: Box[], image: { width: number; height: number }): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${baseUrl}/api/work/checkouts/${checkoutId}/submit`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...worker.auth },
    body: JSON.stringify({ annotations: boxes, image_width: image.width, image_height: image.height }),
  });
  return { status: res.status, body: await res.json() };
}

/** Checks out the next task of the project, submits `boxes` on it and returns the task's UUID. */
export async function workOnNextTask(baseUrl: string, worker: Worker, projectUuid: string, boxes: Box[], image: { width: number; height: number }): Promise<string> {
  const checkout = await checkOutNext(baseUrl, worker, projectUuid);
  const { status, body } = await submitBoxes(baseUrl, worker, checkout.checkout_id, boxes, image);
  if (status !== 201) throw new Error(`submit answered ${status}: ${JSON.stringify(body)}`);
  return checkout.task_uuid;
}
