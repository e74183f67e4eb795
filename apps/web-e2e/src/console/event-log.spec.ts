import { useHarness, type Harness } from '../../support/harness';
import { expectEventually } from '../../support/expect-eventually';
import { aProjectWithTasks } from '../../support/scenario';
import { WebhooksPage } from './console.pages';

const harness = useHarness();

/**
 * `n` events of the account, written as fixtures (no task, no address: the log lists them all the same),
 * `minutesAgo` the newest's age, one minute apart, oldest last. A pending one waits a day for its next
 * attempt, so nothing delivers it and the page keeps polling. Returns their ids, newest first.
 */
async function addEvents(h: Harness, accountId: string, n: number, minutesAgo: number, state: 'delivered' | 'pending' = 'delivered'): Promise<string[]> {
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
});
