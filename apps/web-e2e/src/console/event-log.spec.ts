import { useHarness, type Harness } from '../../support/harness';
import { expectEventually } from '../../support/expect-eventually';
import { holdNextRequest } from '../../support/hold-request';
import { aProjectWithTasks } from '../../support/scenario';
import { WebhooksPage } from './console.pages';

const harness = useHarness();

/**
 * `n` events of the account, written as fixtures (no task, no address: the log lists them all the same),
 * `minutesAgo` the newest's age, one minute apart, oldest last. A pending one waits a day for its next
 * attempt, so nothing delivers it and the page keeps polling. Returns their ids, newest first.
 */
async function addEvents(h: Harness, accountId: string, n: number, minutesAgo: number, state: 'delivered' | 'pending' | 'failed' = 'delivered'): Promise<string[]> {
  const rows: Array<{ id: string }> = await h.api.db.query(
    `INSERT INTO webhook_events (id, account_id, type, payload, state, next_attempt_at, created_at)
     SELECT gen_random_uuid(), $1, 'task_completed', '{}'::jsonb, $2,
            CASE WHEN $2 = 'pending' THEN now() + interval '1 day' END, now() - make_interval(mins => $3 + i)
       FROM generate_series(0, $4 - 1) AS i
     ORDER BY i
     RETURNING id`,
    [accountId, state, minutesAgo, n],
  );
  return rows.map((r) => r.id);
}

describe('the webhook event log', () => {
  it('keeps every loaded event reachable when new events arrive after older pages were loaded', async () => {
    const h = harness();
    const { requester } = await aProjectWithTasks(h, { tasks: 0 });
    // 61 events: a pending one (so the page polls), then 60 delivered ones.
    const before = [...(await addEvents(h, requester.accountId, 1, 100, 'pending')), ...(await addEvents(h, requester.accountId, 60, 101))];
    const page = await h.newPage({ as: requester });
    const hooks = new WebhooksPage(page);
    await hooks.open();
    await hooks.events.nth(49).waitFor();
    await page.getByRole('button', { name: 'Load older events' }).click();
    await expectEventually(async () => (await hooks.events.count()) === 61, 'both pages: 61 events');

    // Five events arrive; the page's own poll shows them, and the five it had at the first page's end stay.
    const fresh = await addEvents(h, requester.accountId, 5, 0);
    const ids = () => hooks.events.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-event-id')));
    await expectEventually(async () => (await ids())[0] === fresh[0], 'the new events at the top, by the poll', async () => `${(await ids()).length} events`);
    expect(await ids()).toEqual([...fresh, ...before]);
    await page.getByRole('button', { name: 'Load older events' }).click();
    await page.getByRole('status').filter({ hasText: 'No older events.' }).waitFor();
    expect(await hooks.events.count()).toBe(66);
  });

  it('keeps every loaded page through Refresh and a redelivery, and says under the event that it was queued again', async () => {
    const h = harness();
    const { requester } = await aProjectWithTasks(h, { tasks: 0 });
    const before = await addEvents(h, requester.accountId, 61, 100);
    const page = await h.newPage({ as: requester });
    const hooks = new WebhooksPage(page);
    await hooks.open();
    await hooks.events.nth(49).waitFor();
    await page.getByRole('button', { name: 'Load older events' }).click();
    await expectEventually(async () => (await hooks.events.count()) === 61, 'both pages: 61 events');
    const ids = () => hooks.events.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-event-id')));

    const fresh = await addEvents(h, requester.accountId, 1, 0);
    await page.getByTestId('refresh-events').click();
    await expectEventually(async () => (await ids())[0] === fresh[0], 'the new event at the top, after Refresh', async () => `${(await ids()).length} events`);
    expect(await ids()).toEqual([...fresh, ...before]);

    // An event of the second page: it stays where it is, with what happened under its button.
    const older = hooks.events.nth(55);
    expect(await older.getAttribute('data-event-id')).toBe(before[54]);
    await older.locator('summary').click();
    await older.getByTestId('redeliver').click();
    const outcome = older.getByTestId('redeliver-outcome');
    await outcome.waitFor();
    expect(await outcome.innerText()).toMatch(/^Event \S+ is queued for delivery again\.$/);
    // Sent again (a fixture event has no address, so it may fail again at once): no longer delivered.
    await expectEventually(async () => (await older.getAttribute('data-event-state')) !== 'delivered', 'the log reloaded with the event sent again', () => older.innerText());
    expect(await outcome.count()).toBe(1);
    expect(await ids()).toEqual([...fresh, ...before]);
  });

  it('drops a page of older events that arrives after the filter changed', async () => {
    const h = harness();
    const { requester } = await aProjectWithTasks(h, { tasks: 0 });
    const failed = await addEvents(h, requester.accountId, 3, 10, 'failed');
    await addEvents(h, requester.accountId, 60, 100);
    const page = await h.newPage({ as: requester });
    const hooks = new WebhooksPage(page);
    await hooks.open();
    await hooks.events.nth(49).waitFor();

    // "Load older events" of All events is held on its way while the requester picks Failed.
    const older = await holdNextRequest(page, (url) => url.pathname === '/api/console/webhooks/events' && url.searchParams.has('before'));
    const settled = new Promise<void>((resolve) => {
      const done = (request: { url(): string }) => request.url().includes('before=') && resolve();
      page.on('requestfinished', done);
      page.on('requestfailed', done);
    });
    await page.getByRole('button', { name: 'Load older events' }).click();
    await older.reached;
    await page.getByLabel('Show').selectOption({ label: 'Failed' });
    const ids = () => hooks.events.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-event-id')));
    await expectEventually(async () => (await ids()).join() === failed.join(), 'the three failed events', async () => `${(await ids()).length} events`);

    await older.release(); // the page aborted it: let go quietly
    await settled;
    await page.waitForTimeout(300); // time for a reply that got through to be shown
    expect(await ids()).toEqual(failed);
    expect(await page.getByRole('button', { name: 'Load older events' }).count()).toBe(0);
  });
  it('keeps the keyboard on "Redeliver all failed events" while it runs, then on what it did (the button goes once its events leave the filter)', async () => {
    const h = harness();
    const { requester } = await aProjectWithTasks(h, { tasks: 0 });
    await addEvents(h, requester.accountId, 3, 10, 'failed');
    const page = await h.newPage({ as: requester });
    const hooks = new WebhooksPage(page);
    await hooks.open();
    // The filtered list replaces the one shown (its button with it) when its answer arrives: focus the
    // button after that, or Enter lands on the page's body and nothing is sent (a CI run timed out so).
    const filtered = page.waitForResponse((res) => res.url().includes('/api/console/webhooks/events') && res.url().includes('state=failed'));
    await page.getByLabel('Show').selectOption({ label: 'Failed' });
    await filtered;
    const button = page.getByTestId('redeliver-failed');
    await button.focus();
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.textContent ?? '');
    await expectEventually(async () => (await focused()) === 'redeliver-failed', 'the focus on the button', focused);

    const request = await holdNextRequest(page, '**/api/console/webhooks/events/redeliver-failed');
    await page.keyboard.press('Enter');
    await request.reached;
    expect(await button.innerText()).toBe('Queuing…');
    expect(await focused()).toBe('redeliver-failed');

    await request.release();
    await page.getByRole('status').filter({ hasText: '3 failed events are queued for delivery again.' }).waitFor();
    await expectEventually(async () => (await focused()) === '3 failed events are queued for delivery again.', 'the focus on what it did', focused);
  });
});
