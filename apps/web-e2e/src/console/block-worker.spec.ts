import { expectEventually } from '../../support/expect-eventually';
import { useHarness } from '../../support/harness';
import { WorkProjectsPage } from '../../support/pages/work-projects.page';
import { aProjectWithTasks, aWorker } from '../../support/scenario';
import { AxeAudit } from '../a11y/axe';
import { BlockedWorkersPage, consoleScreenshot, TaskDetailPage } from './console.pages';
import { checkOutNext, workOnNextTask } from './requester-client';

const harness = useHarness();
const IMAGE = { width: 960, height: 640 };

/**
 * Reloads the worker's Find work page until the project is listed or not, as `listed` says: the API
 * keeps each worker's list up to 2 s, so a block or an unblock shows within a few reloads.
 */
async function expectListed(list: WorkProjectsPage, displayName: string, listed: boolean): Promise<void> {
  await expectEventually(
    async () => {
      await list.goto();
      // The list (or its empty state) has arrived once the earnings are shown beside it.
      await list.earnings.waitFor();
      return (await list.project(displayName).count()) === (listed ? 1 : 0);
    },
    `"${displayName}" ${listed ? 'back in' : 'gone from'} the worker's Find work list`,
    async () => (await list.projects.locator('h3').allInnerTexts()).join(', ') || 'no projects',
    15_000,
  );
}

describe('blocking a worker', () => {
  it('from a completed task: the worker loses the project and the task they held, the block is listed, and Unblock gives the project back', async () => {
    const h = harness();
    const project = await aProjectWithTasks(h, { tasks: 3, requiredSubmissions: 1 });
    const signedIn = await aWorker(h, 'Carl Careless');
    const worker = { name: 'Carl Careless', auth: signedIn.auth };
    // One task done (its page shows the worker's boxes), one held now, one left for them to find.
    const done = await workOnNextTask(h.baseUrl, worker, project.projectUuid, [{ label: 'car', center_x: 100, center_y: 100, width: 50, height: 40 }], IMAGE);
    const held = await checkOutNext(h.baseUrl, worker, project.projectUuid);

    const workerPage = await h.newPage({ as: signedIn });
    const findWork = new WorkProjectsPage(workerPage);
    await expectListed(findWork, project.displayName, true);

    const page = await h.newPage({ as: project.requester });
    const audit = new AxeAudit();
    const task = new TaskDetailPage(page);
    await task.open(project.projectUuid, done);
    const workers = await task.blockSection.locator('.cbc-mono').allInnerTexts();
    expect(workers).toEqual([expect.stringMatching(/^worker_[0-9a-f]{12}$/)]);
    const [pseudonym] = workers;

    expect(await task.openBlockDialog(pseudonym)).toBe(
      [
        'They get no more tasks from any of your projects.',
        'Tasks they hold now are taken back, unsubmitted, for other workers to do.',
        'Their submissions so far stay in your results and in the consensus.',
        'You can unblock them on the Blocked workers page.',
      ].join('\n'),
    );
    await audit.check(page, 'task page, block dialog open');
    expect(await task.confirmBlock(pseudonym)).toBe(`${pseudonym} is blocked. 1 task they held was taken back. Blocked workers`);
    await audit.check(page, 'task page, worker blocked');
    // Their submission stays: the task is still complete with their boxes.
    expect(await task.state()).toBe('complete');
    expect(await task.workerToggles.allInnerTexts()).toEqual([expect.stringContaining(pseudonym)]);

    // The lease they held is over, and the project leaves their Find work list.
    const lease = await h.api.request({ method: 'GET', url: `/api/work/checkouts/${held.checkout_id}`, headers: signedIn.auth });
    expect(lease.body.data.state).not.toBe('active');
    await expectListed(findWork, project.displayName, false);

    await page.getByTestId('block-worker-result').getByRole('link', { name: 'Blocked workers' }).click();
    const blocked = new BlockedWorkersPage(page);
    await blocked.waitForList();
    expect(await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Blocked workers' }).getAttribute('aria-current')).toBe('page');
    expect(await blocked.rowTexts()).toEqual([expect.stringMatching(new RegExp(`^${pseudonym} \\| ${project.displayName} \\| \\d`))]);
    expect(await blocked.rows.getByRole('link', { name: project.displayName }).getAttribute('href')).toBe(`/console/projects/${project.projectUuid}`);
    await audit.check(page, 'blocked workers page');
    await consoleScreenshot(page, 'blocked-workers');

    expect(await blocked.unblock(pseudonym)).toBe(`${pseudonym} is unblocked: they can take your tasks again.`);
    await blocked.empty.waitFor();
    expect(await blocked.rows.count()).toBe(0);
    await audit.check(page, 'blocked workers page, empty after an unblock');
    // The list read again agrees: nobody is blocked.
    await blocked.page.reload();
    await blocked.waitForList();
    expect(await blocked.rows.count()).toBe(0);

    // The third task, never leased by them, is theirs to find again.
    await expectListed(findWork, project.displayName, true);
    audit.assertNone();
  });

  it('is reached from the console navigation, and says from where a worker is blocked when none is', async () => {
    const h = harness();
    const { requester } = await aProjectWithTasks(h, { tasks: 1 });
    const page = await h.newPage({ as: requester });
    await page.goto('/console');
    const blocked = new BlockedWorkersPage(page);
    await blocked.openFromNav();
    expect(new URL(page.url()).pathname).toBe('/console/workers');
    expect(await blocked.empty.innerText()).toContain('To block one, open a task of a project');
    // Projects is no longer the current section.
    expect(await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Projects' }).getAttribute('aria-current')).toBeNull();
  });
});
