import type { Page } from 'playwright-core';
import type { Harness } from '../../support/harness';
import { useHarness } from '../../support/harness';
import { WorkHistoryPage } from '../../support/pages/work-history.page';
import { WorkProjectsPage } from '../../support/pages/work-projects.page';
import { aWorker, aWorkerOnATask, problemsOf } from '../../support/scenario';

const harness = useHarness();

const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent?.trim());

/**
 * The network down for one chunk's files (script and stylesheet) until `online()`: each request to them is
 * aborted as Chromium does offline, and counted, so a test can tell the browser fetched the same URL again.
 */
async function offlineFor(page: Page, glob: string) {
  let offline = true;
  const requests: Array<{ url: string; aborted: boolean }> = [];
  await page.route(glob, async (route) => {
    requests.push({ url: route.request().url(), aborted: offline });
    await (offline ? route.abort('internetdisconnected') : route.continue());
  });
  return {
    online: () => {
      offline = false;
    },
    /** The requests made for the chunk's script, in order. */
    scripts: () => requests.filter((r) => r.url.endsWith('.js')),
  };
}

/** Chromium logs each aborted file; those are this test's doing, anything else is not. */
function expectOnlyAbortedFiles(h: Harness) {
  for (const error of h.takeConsoleErrors()) expect(error).toMatch(/Failed to load resource: net::ERR_INTERNET_DISCONNECTED/);
}

describe('a part of the app that failed to load', () => {
  it('the report form: Try again loads it without a reload, styled, and the report then goes through', async () => {
    const h = harness();
    const { project, page, task } = await aWorkerOnATask(h, { tasks: 1 });
    await task.annotator.drawBox(0.2, 0.2, 0.4, 0.5);

    const network = await offlineFor(page, '**/assets/problem-report-*');
    // Pointing at the button preloads the chunk (and fails); the click's own attempt fails too.
    await task.reportProblemButton.click();
    const alert = page.getByRole('alert').filter({ hasText: 'The report form did not load' });
    await alert.waitFor();
    const tryAgain = alert.getByRole('button', { name: 'Try again' });
    expect(await focusedText(page)).toBe('Try again');
    expect(await alert.getByRole('button', { name: 'Cancel' }).isVisible()).toBe(true);
    expect(network.scripts().length).toBeGreaterThan(0);
    expect(network.scripts().every((r) => r.aborted)).toBe(true);

    // Back online: Try again, by keyboard, fetches the same script again and the panel opens on its first reason.
    network.online();
    await page.keyboard.press('Enter');
    await task.problemReport.waitFor();
    await tryAgain.waitFor({ state: 'detached' });
    const scripts = network.scripts();
    expect(new Set(scripts.map((r) => r.url)).size).toBe(1);
    expect(scripts.at(-1)?.aborted).toBe(false);
    expect(await task.focusedReason()).toBe('The image does not load or is broken');
    // Its stylesheet failed with the script; it was fetched again too (a reason a row: problem-report.css).
    expect(await task.problemReport.locator('label').first().evaluate((el) => getComputedStyle(el).display)).toBe('flex');

    await task.reason('The instructions are unclear').check();
    await task.reportAndSkipButton.click();
    await task.noTask.waitFor();
    expect(await task.notice.innerText()).toContain('Skipped. The task went back to other workers.');
    // What the project's owner reads: the reason chosen in the panel that loaded late.
    expect(await problemsOf(h, project, project.taskUuids[0])).toEqual([{ problem: 'unclear_instructions', count: 1 }]);
    expectOnlyAbortedFiles(h);
  });

  it('a lazy page (/work/history): the header stays, Try again loads the page, a reload link is there as a last resort', async () => {
    const h = harness();
    const page = await h.newPage({ as: await aWorker(h) });
    await new WorkProjectsPage(page).goto();
    const network = await offlineFor(page, '**/assets/work-history-page-*');

    await page.getByRole('link', { name: 'History' }).click();
    await page.waitForURL('**/work/history');
    const failed = page.getByRole('heading', { name: 'This page did not load' });
    await failed.waitFor();
    expect(await focusedText(page)).toBe('Try again');
    expect(await page.getByRole('alert').innerText()).toMatch(/connection/);
    // The rest of the app is still there and works.
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link', { name: 'Work' }).isVisible()).toBe(true);
    const reload = page.getByRole('link', { name: 'Reload the page' });
    expect(new URL((await reload.getAttribute('href')) ?? '', h.baseUrl).pathname).toBe('/work/history');
    expect(network.scripts().every((r) => r.aborted)).toBe(true);

    network.online();
    await page.getByRole('button', { name: 'Try again' }).click();
    const history = new WorkHistoryPage(page);
    await history.waitFor();
    await history.empty.waitFor();
    expect(network.scripts().at(-1)?.aborted).toBe(false);
    // The focus is at the page's start, as after any navigation, not lost with the button.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    expect(await failed.count()).toBe(0);
    expectOnlyAbortedFiles(h);
  });
});
