import type { Page } from 'playwright-core';
import { useHarness } from '../../support/harness';
import { expectEventually } from '../../support/expect-eventually';
import { aProjectWithTasks } from '../../support/scenario';
import { TaskDetailPage, TaskListPage } from './console.pages';
import { signUpWorker, workOnNextTask } from './requester-client';

const harness = useHarness();

/** What has the focus: a button's text, else the element's tag name. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => (document.activeElement instanceof HTMLButtonElement ? document.activeElement.innerText : (document.activeElement?.tagName ?? '')));
}

describe('tasks in the console', () => {
  it('starts the list on page 1 when the project’s Tasks tab drops the filter', async () => {
    const h = harness();
    const { requester, projectUuid, taskUuids } = await aProjectWithTasks(h, { tasks: 27 });
    const page = await h.newPage({ as: requester });
    const tasks = new TaskListPage(page);
    await tasks.open(projectUuid, 'incomplete');
    await page.getByRole('button', { name: /^Older/ }).click();
    await expectEventually(async () => (await tasks.caption()) === 'Outstanding tasks, newest first, page 2', 'page 2 of Outstanding');

    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Tasks' }).click();
    await page.waitForURL((url) => url.pathname.endsWith('/tasks') && url.search === '');
    await expectEventually(async () => (await tasks.caption()) === 'All tasks, newest first, page 1', 'page 1 of All tasks', () => tasks.caption());
    const uuids = await tasks.uuids();
    expect(uuids).toHaveLength(25);
    expect(uuids[0]).toBe(taskUuids[26]);
  });

  it('keeps the page in the address: Back from a task on page 2 and a reload show page 2 again', async () => {
    const h = harness();
    const { requester, projectUuid, taskUuids } = await aProjectWithTasks(h, { tasks: 27 });
    const page = await h.newPage({ as: requester });
    const tasks = new TaskListPage(page);
    await tasks.open(projectUuid, 'incomplete');
    await page.getByRole('button', { name: /^Older/ }).click();
    const pageTwo = async () => (await tasks.caption()) === 'Outstanding tasks, newest first, page 2';
    await expectEventually(pageTwo, 'page 2 of Outstanding', () => tasks.caption());
    expect(await tasks.uuids()).toEqual([taskUuids[1], taskUuids[0]]);

    await tasks.row(taskUuids[0]).getByRole('link').click();
    await page.waitForURL((url) => url.pathname.endsWith(`/tasks/${taskUuids[0]}`));
    await page.goBack();
    await expectEventually(pageTwo, 'page 2 again after Back', () => tasks.caption());
    expect(await tasks.uuids()).toEqual([taskUuids[1], taskUuids[0]]);
    await page.reload();
    await expectEventually(pageTwo, 'page 2 again after a reload', () => tasks.caption());

    // Newer goes back to page 1; another filter from the menu starts on its page 1.
    await page.getByRole('button', { name: /Newer$/ }).click();
    await expectEventually(async () => (await tasks.caption()) === 'Outstanding tasks, newest first, page 1', 'page 1 of Outstanding', () => tasks.caption());
    await page.getByRole('button', { name: /^Older/ }).click();
    await expectEventually(pageTwo, 'page 2 once more', () => tasks.caption());
    await tasks.filter('All tasks');
    await expectEventually(async () => (await tasks.caption()) === 'All tasks, newest first, page 1', 'page 1 of All tasks', () => tasks.caption());
    expect(new URL(page.url()).search).toBe('');
  });

  it('offers the newest tasks, filter kept, when the address holds a page link the API no longer takes', async () => {
    const h = harness();
    const { requester, projectUuid, taskUuids } = await aProjectWithTasks(h, { tasks: 2 });
    const page = await h.newPage({ as: requester });
    const tasks = new TaskListPage(page);
    // A cursor as an older release wrote it (PostgreSQL's text of the moment): Try again would fail the same way.
    const stale = encodeURIComponent(`2026-11-20 10:00:00.000007+00|${taskUuids[0]}`);
    await page.goto(`/console/projects/${projectUuid}/tasks?state=incomplete&before=${stale}`);
    await page.getByRole('alert').getByText('This link to a later page of the list no longer works.').waitFor();
    await expectEventually(async () => (await focused(page)) === 'Show the newest tasks', 'the focus on Show the newest tasks', () => focused(page));
    await page.keyboard.press('Enter');
    await expectEventually(async () => (await tasks.caption()) === 'Outstanding tasks, newest first, page 1', 'page 1 of Outstanding', () => tasks.caption());
    expect(await tasks.uuids()).toEqual([taskUuids[1], taskUuids[0]]);
    expect(new URL(page.url()).search).toBe('?state=incomplete');
  });

  it('gives the focus back to the pager after Older and Newer load their page', async () => {
    const h = harness();
    const { requester, projectUuid } = await aProjectWithTasks(h, { tasks: 27 });
    const page = await h.newPage({ as: requester });
    const tasks = new TaskListPage(page);
    await tasks.open(projectUuid);
    await page.getByRole('button', { name: /^Older/ }).focus();
    await page.keyboard.press('Enter');
    await expectEventually(async () => (await tasks.caption()).endsWith('page 2'), 'page 2');
    // Page 2 is the last, so Older is disabled: the focus is on Newer, the only way on.
    await expectEventually(async () => (await focused(page)) === '← Newer', 'the focus on Newer', () => focused(page));
    await page.keyboard.press('Enter');
    await expectEventually(async () => (await tasks.caption()).endsWith('page 1'), 'page 1');
    await expectEventually(async () => (await focused(page)) === 'Older →', 'the focus on Older', () => focused(page));
  });

  it('leads back from a task to the filtered list it was opened from, through a reload; a task opened directly to the whole list', async () => {
    const h = harness();
    const { requester, projectUuid, taskUuids } = await aProjectWithTasks(h, { tasks: 3, requiredSubmissions: 2 });
    const worker = await signUpWorker(h.baseUrl, 'Carl Careless');
    const done = await workOnNextTask(h.baseUrl, worker, projectUuid, [{ label: 'car', center_x: 100, center_y: 100, width: 50, height: 40 }], { width: 960, height: 640 });
    const detail = await h.api.request({ method: 'GET', url: `/api/console/projects/${projectUuid}/tasks/${done}`, headers: requester.auth });
    const carl: string = detail.body.data.results.submissions[0].worker;
    const filtered = `?state=incomplete&worker=${carl}`;
    const list = `/console/projects/${projectUuid}/tasks`;

    const page = await h.newPage({ as: requester });
    const tasks = new TaskListPage(page);
    const task = new TaskDetailPage(page);
    const tasksCrumb = page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Tasks' });
    const backToTasks = page.getByRole('link', { name: 'Back to the tasks' });
    const backOnCarlsList = async () => {
      await page.waitForURL((url) => url.pathname === list && url.search === filtered);
      await tasks.waitForTasks([done]);
      expect(await tasks.workerFilter.innerText()).toContain(`Tasks ${carl} submitted to`);
    };

    await page.goto(`${list}${filtered}`);
    await tasks.waitForTasks([done]);
    await tasks.row(done).getByRole('link').click();
    await task.problems.waitFor();
    expect(new URL(page.url()).pathname).toBe(`${list}/${done}`);
    await tasksCrumb.click();
    await backOnCarlsList();

    // The history entry keeps what the list handed over, through a reload of the task page.
    await tasks.row(done).getByRole('link').click();
    await task.problems.waitFor();
    await page.reload();
    await task.problems.waitFor();
    await backToTasks.click();
    await backOnCarlsList();

    // A task opened from its address (a copied link) knows no list: the way back is the whole list.
    await task.open(projectUuid, taskUuids.find((t) => t !== done) ?? '');
    expect([await tasksCrumb.getAttribute('href'), await backToTasks.getAttribute('href')]).toEqual([list, list]);
    await tasksCrumb.click();
    await page.waitForURL((url) => url.pathname === list && url.search === '');
    await tasks.waitForTasks(taskUuids);
  });

  it('says a cancelled task has no consensus, with how many submissions it got', async () => {
    const h = harness();
    const { requester, projectUuid, taskUuids } = await aProjectWithTasks(h, { tasks: 1, requiredSubmissions: 3 });
    const worker = await signUpWorker(h.baseUrl, 'Only Worker');
    await workOnNextTask(h.baseUrl, worker, projectUuid, [{ label: 'car', center_x: 100, center_y: 100, width: 50, height: 40 }], { width: 960, height: 640 });
    const cancelled = await h.api.request({ method: 'POST', url: `/api/console/projects/${projectUuid}/cancel_outstanding`, headers: requester.auth });
    expect(cancelled.status).toBe(200);

    const page = await h.newPage({ as: requester });
    await page.goto(`/console/projects/${projectUuid}/tasks/${taskUuids[0]}`);
    const note = page.getByTestId('consensus-note');
    await note.waitFor();
    expect(await note.innerText()).toBe('This task was cancelled with 1 of 3 submissions, so it has no consensus and never will. Each worker’s boxes are under Layers: switch a worker on to draw them.');
    expect(await page.getByTestId('worker-toggle').count()).toBe(1);
  });
});
