import type { TestApp } from './test-app';

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

export interface SignedIn {
  token: string;
  userId: string;
  accountId: string;
  email: string;
  /** Headers that authenticate as this user. */
  auth: Record<string, string>;
}

let signups = 0;
/**
 * Each user signs up from an address of its own (198.18.0.0/15, the benchmarking range), as people do:
 * a test file signs up more users than SignupThrottle lets one address create.
 */
const nextClientAddress = () => {
  const n = signups++;
  return `198.${18 + ((n >> 16) & 1)}.${(n >> 8) & 255}.${n & 255}`;
};

export async function signUp(t: TestApp, overrides: { email?: string; password?: string; name?: string } = {}): Promise<SignedIn> {
  const email = overrides.email ?? `user-${unique()}@example.com`;
  const res = await t.request({
    method: 'POST',
    url: '/api/session/signup',
    remoteAddress: nextClientAddress(),
    body: { email, password: overrides.password ?? 'correct horse battery', name: overrides.name ?? 'Test User' },
  });
  if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${res.text}`);
  const { user, token } = res.body.data;
  return { token, userId: user.id, accountId: user.account_id, email, auth: { authorization: `Bearer ${token}` } };
}

export const DEFAULT_PROJECT = {
  name: 'street-scenes',
  display_name: 'Find the cars',
  display_short_description: 'Draw a box around every car.',
  template: '<p>Draw a box around every [[object]] in <b>[[place]]</b>.</p>',
  labels: ['car', 'person'],
  variables: { place: 'the picture' },
  default_required_submissions: 3,
  default_reward: 25,
  allowed_completion_time_seconds: 600,
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function createProject(t: TestApp, owner: SignedIn, overrides: Record<string, unknown> = {}): Promise<any> {
  const res = await t.request({ method: 'POST', url: '/api/console/projects', headers: owner.auth, body: { ...DEFAULT_PROJECT, ...overrides } });
  if (res.status !== 201) throw new Error(`project creation failed: ${res.status} ${res.text}`);
  return res.body.data;
}

export async function createApiKey(t: TestApp, owner: SignedIn, mode: 'live' | 'test' = 'live'): Promise<string> {
  const res = await t.request({ method: 'POST', url: '/api/console/api_keys', headers: owner.auth, body: { mode } });
  if (res.status !== 201) throw new Error(`key creation failed: ${res.status} ${res.text}`);
  return res.body.data.secret;
}

/** Revokes the key whose secret is `secret` through `t` (the console's DELETE); the answer's status. */
export async function revokeApiKey(t: TestApp, owner: SignedIn, secret: string): Promise<number> {
  const keys = await t.request({ method: 'GET', url: '/api/console/api_keys', headers: owner.auth });
  const key = (keys.body.data as Array<{ id: string; prefix: string }>).find((k) => secret.startsWith(k.prefix));
  if (!key) throw new Error('key not listed');
  return (await t.request({ method: 'DELETE', url: `/api/console/api_keys/${key.id}`, headers: owner.auth })).status;
}

export interface Requester extends SignedIn {
  projectUuid: string;
  liveKey: string;
  testKey: string;
}

/** A signed-up requester with one project and a live and a test key. */
export async function aRequester(t: TestApp, projectOverrides: Record<string, unknown> = {}): Promise<Requester> {
  const owner = await signUp(t);
  const project = await createProject(t, owner, projectOverrides);
  return { ...owner, projectUuid: project.uuid, liveKey: await createApiKey(t, owner, 'live'), testKey: await createApiKey(t, owner, 'test') };
}

/** add_task through the requester API with the given key. */
export function addTask(t: TestApp, key: string, task: Record<string, unknown>, headers: Record<string, string> = {}) {
  return t.request({ method: 'POST', url: '/api/v1/projects/add_task', headers: { apikey: key, ...headers }, body: { task } });
}

/** The box most tests draw: a car, inside a 640x480 image. */
export const A_BOX = { label: 'car', center_x: 100, center_y: 80, width: 40, height: 30 };

const created = (what: string, res: { status: number; text: string }) => {
  if (res.status !== 201) throw new Error(`${what}: ${res.status} ${res.text}`);
};

/** A task of `r`'s project (substitution object=car, and `fields`) through add_task; its id. Throws on any answer but 201. */
export async function aTask(t: TestApp, r: Requester, fields: Record<string, unknown> = {}): Promise<string> {
  const res = await addTask(t, r.liveKey, { project_uuid: r.projectUuid, substitutions: { object: 'car' }, ...fields });
  created('add_task', res);
  return res.body.data.task_uuid;
}

/** `worker` leases the next task of the project through the worker API. Throws on any answer but 201. */
export async function checkOut(t: TestApp, worker: SignedIn, projectUuid: string): Promise<{ checkout_id: string; task_uuid: string }> {
  const res = await t.request({ method: 'POST', url: '/api/work/checkouts', headers: worker.auth, body: { project_uuid: projectUuid } });
  created('checkout', res);
  return res.body.data;
}

/** What a worker sends with a submission; each field left out is the default (A_BOX, 640x480). */
export interface Drawing {
  annotations?: readonly object[];
  image_width?: number;
  image_height?: number;
}

/** `worker` submits `drawing` (by default A_BOX on a 640x480 image) for the lease; the answer, whatever it is. */
export function submitABox(t: TestApp, worker: SignedIn, checkoutId: string, drawing: Drawing = {}) {
  return t.request({
    method: 'POST',
    url: `/api/work/checkouts/${checkoutId}/submit`,
    headers: worker.auth,
    body: { annotations: [A_BOX], image_width: 640, image_height: 480, ...drawing },
  });
}

/**
 * Adds a task of one submission (add_task `fields`) and has `worker` complete it (check out, submit
 * `drawing`, by default A_BOX on a 640x480 image), through the real APIs; the task's id. Throws on any
 * answer but 201, and when the worker is leased another task than the one added.
 */
export async function aCompletedTask(t: TestApp, r: Requester, worker: SignedIn, fields: Record<string, unknown> = {}, drawing: Drawing = {}): Promise<string> {
  const taskId = await aTask(t, r, { required_submissions: 1, ...fields });
  const lease = await checkOut(t, worker, r.projectUuid);
  if (lease.task_uuid !== taskId) throw new Error(`checkout leased task ${lease.task_uuid}, not the task added (${taskId})`);
  created('submit', await submitABox(t, worker, lease.checkout_id, drawing));
  return taskId;
}

/** aCompletedTask with `callbackUrl` as the task's callback. */
export function completeTaskWithCallback(t: TestApp, r: Requester, worker: SignedIn, callbackUrl: string): Promise<string> {
  return aCompletedTask(t, r, worker, { callback_url: callbackUrl });
}
