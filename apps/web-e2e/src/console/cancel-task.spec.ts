import type { Page } from 'playwright-core';
import { expectEventually } from '../../support/expect-eventually';
import { useHarness, type Harness } from '../../support/harness';
import { holdNextRequest } from '../../support/hold-request';
import type { SignedIn } from '../../support/server/api-server';
import { aProjectWithTasks, aWorker } from '../../support/scenario';
import { TaskDetailPage } from './console.pages';

const harness = useHarness();

/** The focused element's data-testid, else its text. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? (document.activeElement as HTMLElement | null)?.innerText ?? '');
}

/** Checks out the project's next task as `worker` through the worker API: the lease's id and the task's UUID. */
async function checkOut(h: Harness, worker: SignedIn, projectUuid: string): Promise<{ checkout_id: string; task_uuid: string }> {
  const lease = await h.api.request({ method: 'POST', url: '/api/work/checkouts', headers: worker.auth, body: { project_uuid: projectUuid } });
  if (lease.status !== 201) throw new Error(`checkout answered ${lease.status}: ${lease.text}`);
  return lease.body.data;
}

/** A lease's state as its worker reads it (GET /api/work/checkouts/:id). */
async function leaseState(h: Harness, worker: SignedIn, checkoutId: string): Promise<string> {
  const res = await h.api.request({ method: 'GET', url: `/api/work/checkouts/${checkoutId}`, headers: worker.auth });
  if (res.status !== 200) throw new Error(`lease read answered ${res.status}: ${res.text}`);
  return res.body.data.state;
}

async function taskState(h: Harness, requester: SignedIn, projectUuid: string, taskUuid: string): Promise<{ state: string; cancelled_at: string | null }> {
  const res = await h.api.request({ method: 'GET', url: `/api/console/projects/${projectUuid}/tasks/${taskUuid}`, headers: requester.auth });
  const { state, cancelled_at } = res.body.data;
  return { state, cancelled_at };
}

describe('cancelling one task from its page', () => {
  it('states the cost and the reports, cancels that task alone, ends its lease and gives the focus to the result', async () => {
    const h = harness();
    const { requester, projectUuid, taskUuids } = await aProjectWithTasks(h, { tasks: 2, requiredSubmissions: 1, reward: 50 });
    const [target, other] = taskUuids;
    const [reporter, holder, otherHolder] = await Promise.all([aWorker(h, 'Worker One'), aWorker(h, 'Worker Two'), aWorker(h, 'Worker Three')]);
    // One worker gives the task back reporting a broken image; another then holds it, a third the other task.
    const reported = await checkOut(h, reporter, projectUuid);
    expect(reported.task_uuid).toBe(target);
    const released = await h.api.request({ method: 'POST', url: `/api/work/checkouts/${reported.checkout_id}/release`, headers: reporter.auth, body: { problem: 'image_broken' } });
    expect(released.status).toBe(200);
    const held = await checkOut(h, holder, projectUuid);
    expect(held.task_uuid).toBe(target);
    const otherLease = await checkOut(h, otherHolder, projectUuid);
    expect(otherLease.task_uuid).toBe(other);

    const page = await h.newPage({ as: requester });
    const task = new TaskDetailPage(page);
    await task.open(projectUuid, target);
    expect(await task.state()).toBe('outstanding');
    expect(await task.openCancelDialog()).toEqual({
      summary: '$0.50 of reward will not be paid: 1 missing submission × $0.50. 1 worker holds it now; their work ends unsubmitted.',
      problems: ['1 worker reported: The image does not load or is broken'],
    });
    expect(await task.cancelDialog.innerText()).toContain('It has no submissions yet. This cannot be undone.');
    expect(await focused(page)).toBe('Keep it');

    expect(await task.confirmCancel()).toBe('Task cancelled. $0.50 will not be paid; 1 worker’s lease ended.');
    await expectEventually(async () => (await focused(page)) === 'cancel-task-result', 'the focus on the result', () => focused(page));
    await expectEventually(async () => (await task.state()) === 'cancelled', 'the task read again as cancelled', () => task.state());
    expect(await task.cancelButton.count()).toBe(0);
    expect(await page.getByTestId('consensus-note').innerText()).toBe('This task was cancelled with 0 of 1 submissions, so it has no consensus and never will.');
    expect(await focused(page)).toBe('cancel-task-result');

    expect(await leaseState(h, holder, held.checkout_id)).toBe('cancelled');
    expect(await leaseState(h, otherHolder, otherLease.checkout_id)).toBe('active');
    expect(await taskState(h, requester, projectUuid, other)).toEqual({ state: 'incomplete', cancelled_at: null });
  });

  it('offers no cancel on a complete task, only on an outstanding one', async () => {
    const h = harness();
    const { requester, projectUuid, taskUuids } = await aProjectWithTasks(h, { tasks: 2, requiredSubmissions: 1 });
    const [done, open] = taskUuids;
    const worker = await aWorker(h);
    const lease = await checkOut(h, worker, projectUuid);
    expect(lease.task_uuid).toBe(done);
    const submitted = await h.api.request({
      method: 'POST',
      url: `/api/work/checkouts/${lease.checkout_id}/submit`,
      headers: worker.auth,
      body: { annotations: [{ label: 'car', center_x: 100, center_y: 100, width: 50, height: 40 }], image_width: 960, image_height: 640 },
    });
    expect(submitted.status).toBe(201);

    const page = await h.newPage({ as: requester });
    const task = new TaskDetailPage(page);
    await task.open(projectUuid, open);
    expect(await task.cancelButton.count()).toBe(1);
    await task.open(projectUuid, done);
    expect(await task.state()).toBe('complete');
    expect(await task.cancelButton.count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Cancel this task' }).count()).toBe(0);
  });

  it('shows the API’s error, leaves the task outstanding and the button usable', async () => {
    const h = harness();
    const { requester, projectUuid, taskUuids } = await aProjectWithTasks(h, { tasks: 1 });
    const page = await h.newPage({ as: requester });
    const task = new TaskDetailPage(page);
    await task.open(projectUuid, taskUuids[0]);
    await task.openCancelDialog();

    const request = await holdNextRequest(page, (url) => url.pathname === `/api/console/projects/${projectUuid}/tasks/${taskUuids[0]}/cancel`);
    await task.cancelDialog.getByRole('button', { name: 'Cancel the task' }).click();
    const held = await request.reached;
    await task.cancelDialog.getByRole('button', { name: 'Working…' }).waitFor();
    await held.fulfill({ status: 503, json: { errors: [{ field: 'root', detail: 'the database is busy; retry in a few seconds' }] } });

    const error = page.getByTestId('error-list');
    await error.waitFor();
    expect((await error.innerText()).replace(/\s+/g, ' ')).toBe('The task was not cancelled. the database is busy; retry in a few seconds');
    await task.cancelDialog.waitFor({ state: 'hidden' });
    await expectEventually(async () => (await focused(page)) === 'cancel-task', 'the focus back on the button', () => focused(page));
    expect(await task.state()).toBe('outstanding');
    expect(await taskState(h, requester, projectUuid, taskUuids[0])).toEqual({ state: 'incomplete', cancelled_at: null });

    // The button opens the dialog again, and the old error goes.
    await task.openCancelDialog();
    expect(await error.count()).toBe(0);
    h.takeConsoleErrors(); // Chromium logs the 503 it was given
  });
});
