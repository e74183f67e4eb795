import { useHarness } from '../../support/harness';
import { holdNextRequest } from '../../support/hold-request';
import { aProjectWithTasks } from '../../support/scenario';
import { ProjectOverviewPage } from './console.pages';

const harness = useHarness();

describe('cancelling outstanding tasks', () => {
  it('says the opener is busy while the figures are read, and shows the error instead of old figures when the read fails', async () => {
    const h = harness();
    const { requester, projectUuid } = await aProjectWithTasks(h, { tasks: 2 });
    const page = await h.newPage({ as: requester });
    const overview = new ProjectOverviewPage(page);
    await overview.open(projectUuid);

    const opener = page.getByTestId('cancel-outstanding');
    // The dialog's fresh read of the progress (the page's own read happened before this) is held on its way.
    const read = await holdNextRequest(page, '**/api/console/projects/*/progress');
    await opener.focus();
    await page.keyboard.press('Enter');
    const held = await read.reached;
    expect(await opener.innerText()).toBe('Counting the outstanding tasks…');
    expect(await opener.getAttribute('aria-disabled')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('cancel-outstanding');

    await held.fulfill({ status: 503, json: { errors: [{ field: 'root', detail: 'the database is busy; retry in a few seconds' }] } });
    const error = page.getByTestId('error-list');
    await error.waitFor();
    expect(await error.innerText()).toContain('the database is busy; retry in a few seconds');
    expect(await overview.cancelDialog.isVisible()).toBe(false);
    expect(await opener.innerText()).toBe('Cancel outstanding tasks');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('cancel-outstanding');
    h.takeConsoleErrors(); // Chromium logs the 503 it was given
  });

  it('offers nothing to confirm when the tasks were cancelled elsewhere since the page loaded', async () => {
    const h = harness();
    const { requester, projectUuid } = await aProjectWithTasks(h, { tasks: 2 });
    const page = await h.newPage({ as: requester });
    const overview = new ProjectOverviewPage(page);
    await overview.open(projectUuid);
    const elsewhere = await h.api.request({ method: 'POST', url: `/api/console/projects/${projectUuid}/cancel_outstanding`, headers: requester.auth });
    expect(elsewhere.status).toBe(200);

    expect(await overview.openCancelDialog()).toBe('Every task was completed or cancelled since this page was loaded: there is nothing to cancel.');
    const buttons = overview.cancelDialog.getByRole('button');
    expect(await buttons.allInnerTexts()).toEqual(['Close', 'Cancel tasks']);
    expect(await buttons.nth(1).isDisabled()).toBe(true);
  });

  it('after a cancel whose answer a proxy loses, the focus is on what is left, not the body, once the button has nothing to cancel', async () => {
    const h = harness();
    const { requester, projectUuid } = await aProjectWithTasks(h, { tasks: 2 });
    const page = await h.newPage({ as: requester });
    const overview = new ProjectOverviewPage(page);
    await overview.open(projectUuid);

    expect(await overview.openCancelDialog()).toContain('2 tasks');
    const held = await holdNextRequest(page, '**/api/console/projects/*/cancel_outstanding');
    await overview.cancelDialog.getByRole('button', { name: 'Cancel 2 tasks' }).click();
    const route = await held.reached;
    // The server cancels; a proxy loses its answer.
    expect((await route.fetch()).status()).toBe(200);
    await route.fulfill({ status: 502, contentType: 'text/html', body: '<h1>502 Bad Gateway</h1>' });

    // The page reads the figures again: nothing is outstanding, and the button has nothing left to do.
    const none = page.getByTestId('cancel-none-left');
    await none.waitFor();
    expect(await page.getByTestId('error-list').innerText()).toContain('No answer from the server: the tasks may have been cancelled');
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName)).toBe('cancel-none-left');
    h.takeConsoleErrors(); // Chromium logs the 502 it was given
  });
});
