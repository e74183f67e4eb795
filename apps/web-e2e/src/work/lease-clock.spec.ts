import type { Harness } from '../../support/harness';
import { useHarness } from '../../support/harness';
import { TaskPage } from '../../support/pages/task.page';
import { aProjectWithTasks, aWorker, shortenNextLease } from '../../support/scenario';

const harness = useHarness();

/** Milliseconds until the lease's expires_at on the database's clock, the one that decides expiry. */
async function msUntilExpiry(h: Harness, checkoutId: string): Promise<number> {
  const rows: Array<{ ms: number }> = await h.api.db.query(
    `SELECT extract(epoch FROM expires_at - clock_timestamp()) * 1000 AS ms FROM checkouts WHERE id = $1`,
    [checkoutId],
  );
  return Number(rows[0].ms);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

describe('the lease countdown', () => {
  it('ends the task on the page before the server does, with the browser clock 1.9 s behind the server', async () => {
    const h = harness();
    const project = await aProjectWithTasks(h, { tasks: 2 });
    const worker = await aWorker(h);
    const page = await h.newPage({ as: worker });
    // The browser's clock runs 1.9 s behind this host's, which the API and the database share.
    await page.clock.install({ time: Date.now() - 1900 });

    const LEASE_MS = 10_000;
    await shortenNextLease(h, page, LEASE_MS);
    const task = await new TaskPage(page).goto(project.projectUuid);
    const checkoutId = await task.checkoutId();
    await task.annotator.drawBox(0.2, 0.2, 0.4, 0.5);

    // Four seconds before the server's deadline the task is still open: the page does not end it far too early.
    await sleep((await msUntilExpiry(h, checkoutId)) - 4000);
    expect(await task.submitButton.isEnabled()).toBe(true);
    expect(await task.countdown.innerText()).toMatch(/0:0[1-3]/);

    // Past the server's deadline the page has said so; Submit is gone, not offered for a submit the server refuses.
    await sleep((await msUntilExpiry(h, checkoutId)) + 50);
    expect(await task.expired.isVisible()).toBe(true);
    expect(await task.submitButton.count()).toBe(0);
    expect(await task.expired.innerText()).toContain('The 1 box you drew on it was not sent.');
  });

  it('gives back a lease it ended early, so "Next task" in the seconds before the server\'s deadline brings another task', async () => {
    const h = harness();
    const project = await aProjectWithTasks(h, { tasks: 2 });
    const worker = await aWorker(h);
    const page = await h.newPage({ as: worker });
    await shortenNextLease(h, page, 6_000);
    const task = await new TaskPage(page).goto(project.projectUuid);
    const first = await task.checkoutId();

    await task.expired.waitFor({ timeout: 10_000 });
    // The page ended it ahead of the server's deadline; the worker moves on at once.
    expect(await msUntilExpiry(h, first)).toBeGreaterThan(500);
    await page.getByRole('button', { name: 'Next task' }).click();
    await task.waitForTask();
    expect(await task.checkoutId()).not.toBe(first);
    const [lease] = await h.api.db.query('SELECT state FROM checkouts WHERE id = $1', [first]);
    expect(lease.state).toBe('released');
  });

  it('in a second tab on a lease the first tab submitted, the end of the countdown says the task was submitted, not that its boxes were lost', async () => {
    const h = harness();
    const project = await aProjectWithTasks(h, { tasks: 2 });
    const worker = await aWorker(h);
    const page = await h.newPage({ as: worker });
    await shortenNextLease(h, page, 14_000);
    const task = await new TaskPage(page).goto(project.projectUuid);
    const first = await task.checkoutId();
    await task.annotator.drawBox(0.2, 0.2, 0.4, 0.5);
    // The same lease resumed in a second tab, left open there while the worker submits in the first.
    const other = new TaskPage(await page.context().newPage());
    await other.goto(project.projectUuid);
    expect(await other.checkoutId()).toBe(first);
    await other.annotator.expectBoxes(1);
    await page.bringToFront();
    await task.submit();
    await task.notice.getByText('Submitted 1 box.', { exact: false }).waitFor();

    // The second tab's countdown ends: its give-back is refused (submitted); it says so instead of "Time is
    // up", and takes no new task by itself (a tab left open behind would hold its slot, unseen).
    const card = other.page.getByTestId('task-submitted');
    await card.waitFor({ timeout: 20_000 });
    expect(await other.expired.count()).toBe(0);
    await other.page.getByRole('button', { name: 'Next task' }).click();
    await other.waitForTask();
    const [lease] = await h.api.db.query('SELECT state FROM checkouts WHERE id = $1', [first]);
    expect(lease.state).toBe('submitted');
    await other.page.close();
  });

  it('tells screen readers the time in a timer that changes now and then, says "less than 5 minutes" once, and shows the last minutes in the tab title', async () => {
    const h = harness();
    const project = await aProjectWithTasks(h, { tasks: 1, allowedSeconds: 600 });
    const worker = await aWorker(h);
    const page = await h.newPage({ as: worker });
    await page.clock.install();
    const task = await new TaskPage(page).goto(project.projectUuid);
    const timer = page.getByRole('timer');
    const announcement = page.getByTestId('countdown-announcement');

    // 600 s less the 2 s margin: whole minutes, no announcement, the title as it was.
    expect(await timer.textContent()).toBe('Time left: 9 minutes');
    expect(await task.countdown.locator('.countdown-clock').getAttribute('aria-hidden')).toBe('true');
    expect(await announcement.textContent()).toBe('');
    expect(await page.title()).toBe('Crowdbox');

    await page.clock.fastForward(300_000);
    await announcement.getByText('Less than 5 minutes left.').waitFor();
    expect(await timer.textContent()).toMatch(/^Time left: 4 minutes (45|30) seconds$/);
    expect(await page.title()).toMatch(/^4:(5\d|4\d) left · Crowdbox$/);

    await page.clock.fastForward(250_000);
    await announcement.getByText('Less than one minute left: submit now.').waitFor();
    expect(await page.title()).toMatch(/^0:\d\d left · Crowdbox$/);

    // Leaving the task gives the title back.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Work' }).click();
    await page.getByRole('heading', { name: 'Find work' }).waitFor();
    expect(await page.title()).toBe('Crowdbox');
  });
});
