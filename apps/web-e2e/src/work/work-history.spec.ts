import { useHarness } from '../../support/harness';
import { TaskPage } from '../../support/pages/task.page';
import { WorkHistoryPage } from '../../support/pages/work-history.page';
import { WorkProjectsPage } from '../../support/pages/work-projects.page';
import { aProjectWithTasks, aWorker } from '../../support/scenario';

const harness = useHarness();

describe('the work history', () => {
  it('lists the two tasks a worker submitted, newest first, with project, boxes and reward, and pages with Load older', async () => {
    const h = harness();
    const cars = await aProjectWithTasks(h, { tasks: 1, displayName: 'Find the cars', reward: 25 });
    const cyclists = await aProjectWithTasks(h, { tasks: 1, displayName: 'Count the cyclists', reward: 40 });
    const worker = await aWorker(h);
    const page = await h.newPage({ as: worker });

    const first = await new TaskPage(page).goto(cars.projectUuid);
    await first.annotator.drawBox(0.2, 0.2, 0.4, 0.4);
    await first.submit();
    await first.noTask.waitFor();
    const second = await new TaskPage(page).goto(cyclists.projectUuid);
    await second.annotator.drawBox(0.1, 0.1, 0.3, 0.3);
    await second.annotator.drawBox(0.5, 0.5, 0.8, 0.8);
    await second.submit();
    await second.noTask.waitFor();

    // Reached from the work list.
    await new WorkProjectsPage(page).goto();
    await page.getByRole('link', { name: 'History' }).click();
    await page.waitForURL('**/work/history');
    const history = new WorkHistoryPage(page);
    await history.waitFor();
    await history.rows.nth(1).waitFor();
    const rows = await history.shown();
    const submitted: Array<{ id: string; created_at: Date }> = await h.api.db.query(
      'SELECT id, created_at FROM submissions WHERE worker_id = $1 ORDER BY created_at DESC',
      [worker.userId],
    );
    expect(rows).toEqual([
      { project: 'Count the cyclists', boxes: '2', reward: '$0.40', iso: submitted[0].created_at.toISOString(), text: expect.any(String) },
      { project: 'Find the cars', boxes: '1', reward: '$0.25', iso: submitted[1].created_at.toISOString(), text: expect.any(String) },
    ]);
    // The time names its zone (the browser's), as the console's times do.
    for (const row of rows) expect(row.text).toMatch(/\d{2}:\d{2}:\d{2} (UTC|GMT[+-]?\d*|[A-Z]{3,5})$/);
    await h.screenshot(page, 'work-history');

    // One a page (the request rewritten to limit=1): Load older appends the older one below, then says it is all.
    await page.route('**/api/work/submissions*', async (route) => {
      const url = new URL(route.request().url());
      url.searchParams.set('limit', '1');
      await route.continue({ url: url.toString() });
    });
    await page.reload();
    await history.rows.first().waitFor();
    expect((await history.shown()).map((r) => r.project)).toEqual(['Count the cyclists']);
    await history.older.click();
    await history.rows.nth(1).waitFor();
    expect((await history.shown()).map((r) => r.project)).toEqual(['Count the cyclists', 'Find the cars']);
    expect(await history.announcer.innerText()).toBe('1 older submission loaded; that is all of them.');
    // The button went with the last page; the focus is on the line that says so.
    await history.end.waitFor();
    expect(await history.end.evaluate((el) => el === document.activeElement)).toBe(true);
  });

  it('tells a worker with no submissions how to earn, and shows an error accessibly with a retry', async () => {
    const h = harness();
    const page = await h.newPage({ as: await aWorker(h) });
    const history = await new WorkHistoryPage(page).goto();
    await history.empty.waitFor();
    expect(await history.empty.innerText()).toContain('You have not submitted any tasks yet');
    expect(await history.rows.count()).toBe(0);

    // A failing API: the error is an alert, and Try again loads the page.
    const failing = '**/api/work/submissions*';
    await page.route(failing, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ errors: [{ field: 'root', detail: 'internal error' }] }) }),
    );
    await history.goto();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(/Could not load your history[\s\S]*internal error/);
    await page.unroute(failing);
    await page.getByRole('button', { name: 'Try again' }).click();
    await history.empty.waitFor();
    // The console errors are the 500s this test made.
    for (const error of h.takeConsoleErrors()) expect(error).toMatch(/status of 500/);
  });
});
