import { randomUUID } from 'node:crypto';
import { aRequester, type Requester } from '../../../test/factories';
import { tableReads } from '../../../test/query-plan';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { eventLogQuery } from '../webhooks-console.service';

describe('webhooks: the console’s event log pages (GET /api/console/webhooks/events)', () => {
  let t: TestApp;
  let r: Requester;
  beforeAll(async () => {
    t = await startTestApp();
    r = await aRequester(t);
  });
  afterAll(() => t.close());

  const page = async (before?: string) => {
    const res = await t.request({ method: 'GET', url: `/api/console/webhooks/events${before ? `?before=${encodeURIComponent(before)}` : ''}`, headers: r.auth });
    expect(res.status).toBe(200);
    return res.body.data as Array<{ id: string; created_at: string }>;
  };

  it('pages by the last event’s id, so events that share a millisecond are neither skipped nor repeated', async () => {
    // 120 events inside one millisecond (microseconds apart, some equal): a completion burst.
    const ids: string[] = await t.db
      .query(
        `INSERT INTO webhook_events (id, account_id, type, payload, state, created_at)
         SELECT gen_random_uuid(), $1, 'task_completed', '{}', 'delivered',
                timestamptz '2026-11-25T12:00:00.123Z' + (g / 2) * interval '1 microsecond'
           FROM generate_series(0, 119) AS g
         RETURNING id`,
        [r.accountId],
      )
      .then((rows: Array<{ id: string }>) => rows.map((row) => row.id));
    const expected: string[] = (
      await t.db.query(`SELECT id FROM webhook_events WHERE account_id = $1 ORDER BY created_at DESC, id DESC`, [r.accountId])
    ).map((row: { id: string }) => row.id);

    const seen: string[] = [];
    for (let events = await page(); events.length > 0; events = await page(events[events.length - 1].id)) {
      seen.push(...events.map((e) => e.id));
    }
    expect(seen).toEqual(expected);
    expect(new Set(seen)).toEqual(new Set(ids));

    // A time still works as a bound; an id of no event of this account gives an empty page.
    expect(await page('2026-11-25T12:00:00.123Z')).toEqual([]);
    expect(await page(randomUUID())).toEqual([]);
    // "1" is a date to JavaScript (2001-01-01) but not to PostgreSQL: a 422, not a 500.
    for (const before of ['yesterday', '1', '2026-02-31T00:00:00Z']) {
      const bad = await t.request({ method: 'GET', url: `/api/console/webhooks/events?before=${before}`, headers: r.auth });
      expect(bad.status).toBe(422);
      expect(bad.body.errors).toEqual([{ field: 'before', detail: expect.stringContaining('event id') }]);
    }
  });

  // A month of a busy receiver's log: 5,000 delivered, 2 failed (or 2 pending: the receiver down), the 2 the oldest.
  it.each([
    ['failed', 'ix_webhook_events_failed'],
    ['pending', 'ix_webhook_events_pending_account'],
  ])('lists %s events through an index of those alone (%s), however long the delivered log', async (state, index) => {
    const owner = await aRequester(t);
    await t.db.query(
      `INSERT INTO webhook_events (id, account_id, type, payload, state, created_at)
       SELECT gen_random_uuid(), $1, 'task_completed', '{}', CASE WHEN g <= 2 THEN $2 ELSE 'delivered' END,
              now() - interval '20 days' + g * interval '1 minute'
         FROM generate_series(1, 5000) AS g`,
      [owner.accountId, state],
    );
    await t.db.query('ANALYZE webhook_events');
    const { sql, params } = eventLogQuery(owner.accountId, { state });
    // Without the index: ix_webhook_events_account_created, every event of the account read.
    expect(await tableReads(t.db, sql, params, 'webhook_events')).toEqual([index]);
    const listed = await t.request({ method: 'GET', url: `/api/console/webhooks/events?state=${state}`, headers: owner.auth });
    expect(listed.body.data.map((e: { state: string }) => e.state)).toEqual([state, state]);
  });
});
