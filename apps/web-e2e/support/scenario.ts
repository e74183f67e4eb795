import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import type { EntityManager } from 'typeorm';
import type { Harness } from './harness';
import { TaskPage } from './pages/task.page';
import { addTask, createApiKey, createProject, signUp, type SignedIn } from './server/api-server';

export const PASSWORD = 'correct horse battery';

export const LABELS = [
  { name: 'car', color: '#e4572e' },
  { name: 'person', color: '#2e86ab' },
  { name: 'bicycle', color: '#8ac926' },
];

export interface ProjectSetup {
  requester: SignedIn;
  projectUuid: string;
  liveKey: string;
  taskUuids: string[];
  displayName: string;
}

export interface ProjectOptions {
  tasks?: number;
  template?: string;
  substitutions?: Record<string, string>;
  displayName?: string;
  description?: string;
  reward?: number;
  allowedSeconds?: number;
  requiredSubmissions?: number;
  image?: { width: number; height: number };
}

/** A requester with one project, a live key and `tasks` tasks added through /api/v1, images on the image host. */
export async function aProjectWithTasks(h: Harness, options: ProjectOptions = {}): Promise<ProjectSetup> {
  const requester = await signUp(h.api, { name: 'Rita Requester' });
  const displayName = options.displayName ?? `Find the cars ${randomBytes(2).toString('hex')}`;
  const project = await createProject(h.api, requester, {
    display_name: displayName,
    display_short_description: options.description ?? 'Draw a box around every car and every person.',
    template: options.template ?? '<p>Draw a box around every <b>car</b> and every <b>person</b> in [[place]].</p>',
    variables: { place: 'the street' },
    labels: LABELS,
    default_reward: options.reward ?? 25,
    default_required_submissions: options.requiredSubmissions ?? 1,
    allowed_completion_time_seconds: options.allowedSeconds ?? 600,
  });
  const liveKey = await createApiKey(h.api, requester, 'live');
  const size = options.image ?? { width: 960, height: 640 };
  const taskUuids: string[] = [];
  for (let i = 0; i < (options.tasks ?? 1); i++) {
    const res = await addTask(h.api, liveKey, {
      project_uuid: project.uuid,
      external_image_url: h.images.url(size.width, size.height, `task-${i}`),
      substitutions: options.substitutions ?? {},
    });
    if (res.status !== 201) throw new Error(`add_task failed: ${res.status} ${res.text}`);
    taskUuids.push(res.body.data.task_uuid);
  }
  return { requester, projectUuid: project.uuid, liveKey, taskUuids, displayName };
}

/**
 * The start of most worker-page tests: a project with tasks (`options` as aProjectWithTasks), a worker,
 * and that worker's browser page on one of the tasks.
 */
export async function aWorkerOnATask(h: Harness, options: ProjectOptions = {}): Promise<{ project: ProjectSetup; worker: SignedIn; page: Page; task: TaskPage }> {
  const project = await aProjectWithTasks(h, options);
  const worker = await aWorker(h);
  const page = await h.newPage({ as: worker });
  const task = await new TaskPage(page).goto(project.projectUuid);
  return { project, worker, page, task };
}

/** What the project's owner reads about a task in the console API: the problems workers reported, per kind. */
export async function problemsOf(h: Harness, project: ProjectSetup, taskUuid: string): Promise<Array<{ problem: string; count: number }>> {
  const res = await h.api.request({
    method: 'GET',
    url: `/api/console/projects/${project.projectUuid}/tasks/${taskUuid}`,
    headers: project.requester.auth,
  });
  expect(res.status).toBe(200);
  return (res.body.data.problems as Array<{ problem: string; count: number }>).map(({ problem, count }) => ({ problem, count }));
}

/** A worker account (signed up through the API); `password` is PASSWORD. */
export function aWorker(h: Harness, name = 'Wanda Worker'): Promise<SignedIn> {
  return signUp(h.api, { name, password: PASSWORD });
}

/**
 * Makes a lease run out now, as if its time had passed: expires_at moves into the past. Lease triggers
 * guard these rows, so the write runs as a fixture (triggers off for this transaction only).
 */
export async function expireLease(h: Harness, checkoutId: string): Promise<void> {
  await h.api.db.transaction(async (tx) => {
    await tx.query('SET LOCAL session_replication_role = replica');
    await tx.query(`UPDATE checkouts SET expires_at = now() - interval '1 second' WHERE id = $1`, [checkoutId]);
    await keepLeaseHint(tx, checkoutId);
  });
}

/**
 * The task row's lease hint (migration 1764300000000: `lease_expiry_min`, a lower bound of its active
 * leases' expiries), kept true after a fixture moved a lease's expiry earlier, as the lease trigger
 * would: readers that trust it (the work list, a project's figures) would count the task as taken
 * until the old expiry.
 */
async function keepLeaseHint(tx: EntityManager, checkoutId: string): Promise<void> {
  await tx.query(
    `UPDATE tasks t SET lease_expiry_min = LEAST(t.lease_expiry_min, c.expires_at) FROM checkouts c WHERE c.id = $1 AND t.id = c.task_id`,
    [checkoutId],
  );
}

/**
 * Makes a lease run out `ms` after it was checked out, shorter than any project allows (30 s at the
 * least); returns its new expires_at. A fixture write like expireLease's.
 */
export async function shortenLease(h: Harness, checkoutId: string, ms: number): Promise<string> {
  return h.api.db.transaction(async (tx) => {
    await tx.query('SET LOCAL session_replication_role = replica');
    await tx.query(`UPDATE checkouts SET expires_at = checked_out_at + make_interval(secs => $2::float8 / 1000) WHERE id = $1`, [checkoutId, ms]);
    await keepLeaseHint(tx, checkoutId);
    const rows: Array<{ expires_at: Date }> = await tx.query('SELECT expires_at FROM checkouts WHERE id = $1', [checkoutId]);
    return rows[0].expires_at.toISOString();
  });
}

/** Shortens the lease of `page`'s next checkout (shortenLease) as its answer passes, so the page sees the short one. */
export async function shortenNextLease(h: Harness, page: Page, ms: number): Promise<void> {
  await page.route(
    '**/api/work/checkouts',
    async (route) => {
      const response = await route.fetch();
      const body = await response.json();
      if (response.status() === 201) body.data.expires_at = await shortenLease(h, body.data.checkout_id, ms);
      await route.fulfill({ response, json: body });
    },
    { times: 1 },
  );
}
