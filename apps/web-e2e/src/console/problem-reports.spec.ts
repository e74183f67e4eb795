import { expectEventually } from '../../support/expect-eventually';
import { useHarness, type Harness } from '../../support/harness';
import { holdNextRequest } from '../../support/hold-request';
import type { SignedIn } from '../../support/server/api-server';
import { aProjectWithTasks, aWorker } from '../../support/scenario';
import { ProjectOverviewPage, TaskDetailPage, TaskListPage } from './console.pages';

const harness = useHarness();

/** The reasons a worker can give (TASK_PROBLEMS in libs/contracts, which browser tests do not import). */
type TaskProblem = 'image_broken' | 'unclear_instructions' | 'offensive_content' | 'other';

/**
 * Checks out the project's next task as `worker` and gives it back, reporting `problem` (or a plain skip
 * without one), through the worker API as the task page does: the task's UUID.
 */
async function giveBack(h: Harness, worker: SignedIn, projectUuid: string, problem?: TaskProblem): Promise<string> {
  const lease = await h.api.request({ method: 'POST', url: '/api/work/checkouts', headers: worker.auth, body: { project_uuid: projectUuid } });
  if (lease.status !== 201) throw new Error(`checkout answered ${lease.status}: ${lease.text}`);
  const { checkout_id, task_uuid } = lease.body.data;
  const released = await h.api.request({
    method: 'POST',
    url: `/api/work/checkouts/${checkout_id}/release`,
    headers: worker.auth,
    ...(problem ? { body: { problem } } : {}),
  });
  if (released.status !== 200) throw new Error(`release answered ${released.status}: ${released.text}`);
  return task_uuid;
}

describe('problem reports in the console', () => {
  it('shows the requester what workers reported: on the overview, in the task list and its filter, and on the task', async () => {
    const h = harness();
    const { requester, projectUuid, taskUuids } = await aProjectWithTasks(h, { tasks: 3, requiredSubmissions: 3 });
    const [oldest, middle, newest] = taskUuids;
    const page = await h.newPage({ as: requester });
    const overview = new ProjectOverviewPage(page);
    await overview.open(projectUuid);
    expect(await overview.reportedTasks.count()).toBe(0);

    // The oldest task goes out first: three workers report on it, then two give the next one back, one saying why.
    const [w1, w2, w3] = await Promise.all([aWorker(h, 'Worker One'), aWorker(h, 'Worker Two'), aWorker(h, 'Worker Three')]);
    expect(await giveBack(h, w1, projectUuid, 'image_broken')).toBe(oldest);
    expect(await giveBack(h, w2, projectUuid, 'image_broken')).toBe(oldest);
    expect(await giveBack(h, w3, projectUuid, 'unclear_instructions')).toBe(oldest);
    expect(await giveBack(h, w1, projectUuid, 'offensive_content')).toBe(middle);
    expect(await giveBack(h, w2, projectUuid)).toBe(middle);

    await overview.open(projectUuid);
    expect(await overview.reportedTasks.innerText()).toBe('⚠ 2 outstanding tasks reported by workers');
    await overview.reportedTasks.getByRole('link').click();
    await page.waitForURL((url) => url.pathname.endsWith('/tasks') && url.search === '?state=incomplete&reported=true');
    const tasks = new TaskListPage(page);
    const reportedOutstanding = 'Outstanding tasks reported by workers, newest first, page 1';
    await expectEventually(async () => (await tasks.caption()) === reportedOutstanding, 'the reported outstanding tasks', () => tasks.caption());
    expect(await tasks.uuids()).toEqual([middle, oldest]);
    expect(await tasks.problemReports(oldest)).toBe('⚠ 3 problem reports');
    expect(await tasks.problemReports(middle)).toBe('⚠ 1 problem report');
    expect(await tasks.reportedFilter.isChecked()).toBe(true);

    await page.reload();
    await expectEventually(async () => (await tasks.caption()) === reportedOutstanding, 'the same list after a reload', () => tasks.caption());
    expect(await tasks.uuids()).toEqual([middle, oldest]);
    expect(await tasks.reportedFilter.isChecked()).toBe(true);

    // Off, the list keeps the state filter and shows the unreported task too, with nothing said of reports.
    await tasks.showReported(false);
    await expectEventually(async () => (await tasks.caption()) === 'Outstanding tasks, newest first, page 1', 'all outstanding tasks', () => tasks.caption());
    expect(new URL(page.url()).search).toBe('?state=incomplete');
    expect(await tasks.uuids()).toEqual([newest, middle, oldest]);
    expect(await tasks.problemReports(newest)).toBe('');
    // On again, then another state from the menu: the filter stays.
    await tasks.showReported(true);
    await expectEventually(async () => (await tasks.caption()) === reportedOutstanding, 'the reported tasks again', () => tasks.caption());
    await tasks.filter('Complete');
    await page.getByText('No complete tasks reported by workers.').waitFor();
    expect(new URL(page.url()).search).toBe('?state=complete&reported=true');

    const task = new TaskDetailPage(page);
    const detail = await h.api.request({ method: 'GET', url: `/api/console/projects/${projectUuid}/tasks/${oldest}`, headers: requester.auth });
    const last = Object.fromEntries((detail.body.data.problems as Array<{ problem: string; last_reported_at: string }>).map((p) => [p.problem, p.last_reported_at]));
    await task.open(projectUuid, oldest);
    expect(await task.problemRows()).toEqual([
      { problem: 'The image does not load or is broken', count: '2', lastReportedAt: last.image_broken },
      { problem: 'The instructions are unclear', count: '1', lastReportedAt: last.unclear_instructions },
    ]);
    await task.open(projectUuid, middle);
    expect(await task.problemRows()).toEqual([{ problem: 'The image is offensive or inappropriate', count: '1', lastReportedAt: expect.any(String) }]);
    await task.open(projectUuid, newest);
    expect((await task.problems.innerText()).replace(/\s+/g, ' ')).toBe('Problems reported by workers None.');
  });

  it('starts the reported tasks on their page 1 when the filter is switched on from page 2, and asks the API for them alone', async () => {
    const h = harness();
    const { requester, projectUuid, taskUuids } = await aProjectWithTasks(h, { tasks: 27 });
    const worker = await aWorker(h);
    expect(await giveBack(h, worker, projectUuid, 'other')).toBe(taskUuids[0]);

    const page = await h.newPage({ as: requester });
    const tasks = new TaskListPage(page);
    await tasks.open(projectUuid);
    await page.getByRole('button', { name: /^Older/ }).click();
    await expectEventually(async () => (await tasks.caption()) === 'All tasks, newest first, page 2', 'page 2 of All tasks', () => tasks.caption());
    expect(await tasks.problemReports(taskUuids[0])).toBe('⚠ 1 problem report');

    // The list's read is held: it is the API, not the page, that leaves the unreported tasks out.
    const read = await holdNextRequest(page, (url) => url.pathname === `/api/console/projects/${projectUuid}/tasks`);
    await tasks.showReported(true);
    const held = await read.reached;
    expect(Object.fromEntries(new URL(held.request().url()).searchParams)).toEqual({ reported: 'true', limit: '25' });
    await read.release();
    await expectEventually(async () => (await tasks.caption()) === 'All tasks reported by workers, newest first, page 1', 'page 1 of the reported tasks', () => tasks.caption());
    expect(new URL(page.url()).search).toBe('?reported=true');
    expect(await tasks.uuids()).toEqual([taskUuids[0]]);
    expect(await page.getByRole('button', { name: /Newer$/ }).isDisabled()).toBe(true);
  });
});
