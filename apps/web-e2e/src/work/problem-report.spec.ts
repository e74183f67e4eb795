import type { Page } from 'playwright-core';
import { useHarness } from '../../support/harness';
import { holdNextRequest } from '../../support/hold-request';
import { TaskPage } from '../../support/pages/task.page';
import { aProjectWithTasks, aWorker, aWorkerOnATask, problemsOf } from '../../support/scenario';

const harness = useHarness();

const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent?.trim());
describe('Report a problem', () => {
  it('gives the task back with the reason chosen, by keyboard, and its owner sees the reason', async () => {
    const h = harness();
    const { project, page, task } = await aWorkerOnATask(h, { tasks: 1 });
    await task.annotator.drawBox(0.2, 0.2, 0.4, 0.5);

    // Escape closes the panel, sends nothing, and puts the focus back on its button.
    await task.reportProblemButton.focus();
    await page.keyboard.press('Enter');
    await task.problemReport.waitFor();
    expect(await task.focusedReason()).toBe('The image does not load or is broken');
    await page.keyboard.press('Escape');
    await task.problemReport.waitFor({ state: 'detached' });
    expect(await focused(page)).toBe('Report a problem');
    expect(await task.submitButton.innerText()).toBe('Submit 1 box');

    await page.keyboard.press('Enter');
    await task.problemReport.waitFor();
    // Reporting throws the drawn box away: the panel says so, rather than asking a second time.
    expect(await task.problemReport.innerText()).toContain('Your 1 box will be thrown away.');
    expect(await task.reportAndSkipButton.isDisabled()).toBe(true);
    // The arrows choose within the radio group (no annotator key fires there); Tab reaches Report and skip.
    await page.keyboard.press('ArrowDown');
    expect(await task.reason('The instructions are unclear').isChecked()).toBe(true);
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('Report and skip');
    await page.keyboard.press('Enter');

    // Moves on as Skip does: the same notice, then the next task (none left here).
    await task.noTask.waitFor();
    expect(await task.notice.innerText()).toContain('Skipped. The task went back to other workers.');
    expect(await problemsOf(h, project, project.taskUuids[0])).toEqual([{ problem: 'unclear_instructions', count: 1 }]);
  });

  it('offers to report a task whose image does not load, on "broken" already', async () => {
    const h = harness();
    const project = await aProjectWithTasks(h, { tasks: 2 });
    const worker = await aWorker(h);
    const page = await h.newPage({ as: worker });
    await page.route('**/images/**', (route) => route.abort('failed'));
    const task = new TaskPage(page);
    await page.goto(`/work/${project.projectUuid}`);
    await task.workspace.waitFor();
    const first = await task.checkoutId();

    await task.reportBrokenImageButton.click();
    await task.problemReport.waitFor();
    expect(await task.reason('The image does not load or is broken').isChecked()).toBe(true);
    expect(await task.focusedReason()).toBe('The image does not load or is broken');
    expect(await task.problemReport.innerText()).not.toContain('thrown away');

    // The report is the Skip's request, with the reason: held, the page shows it out as it shows a Skip.
    const release = await holdNextRequest(page, '**/api/work/checkouts/*/release');
    await task.reportAndSkipButton.click();
    const held = await release.reached;
    expect(held.request().postDataJSON()).toEqual({ problem: 'image_broken' });
    expect(await task.skipButton.innerText()).toBe('Skipping…');
    await release.release();

    await task.notice.getByText('Skipped. The task went back to other workers.').waitFor();
    await page.locator(`[data-testid="task-workspace"]:not([data-checkout-id="${first}"])`).waitFor();
    const [reported] = await h.api.db.query('SELECT task_id FROM checkouts WHERE id = $1', [first]);
    expect(await problemsOf(h, project, reported.task_id)).toEqual([{ problem: 'image_broken', count: 1 }]);

    for (const error of h.takeConsoleErrors()) expect(error).toMatch(/Failed to load resource: net::ERR_FAILED/);
  });
});
