import { useHarness } from '../../support/harness';
import { expectEventually } from '../../support/expect-eventually';
import { aProjectWithTasks } from '../../support/scenario';
import { TaskListPage } from './console.pages';

const harness = useHarness();

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
});
