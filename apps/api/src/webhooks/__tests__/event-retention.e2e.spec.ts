import { randomUUID } from 'node:crypto';
import { eventually } from '../../../test/eventually';
import { aRequester, type Requester } from '../../../test/factories';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.schema';
import { pgPool } from '../../database/prepared-statement';
import { EventRetention } from '../event-retention';

type State = 'pending' | 'delivered' | 'failed';

/** Writes an event of `ageDays` straight into the outbox, with `attempts` logged attempts. */
async function anEvent(t: TestApp, accountId: string, state: State, ageDays: number, attempts = 1): Promise<string> {
  const id = randomUUID();
  await t.db.query(
    `INSERT INTO webhook_events (id, account_id, type, payload, state, attempt_count, created_at)
     VALUES ($1, $2, 'task_completed', '{}', $3, $4, now() - make_interval(days => $5))`,
    [id, accountId, state, attempts, ageDays],
  );
  for (let i = 0; i < attempts; i++) {
    await t.db.query(`INSERT INTO webhook_attempts (id, event_id, status_code, duration_ms) VALUES ($1, $2, 500, 3)`, [randomUUID(), id]);
  }
  return id;
}

const remaining = async (t: TestApp, ids: string[]): Promise<string[]> =>
  (await t.db.query(`SELECT id FROM webhook_events WHERE id = ANY($1::uuid[]) ORDER BY id`, [ids])).map((row: { id: string }) => row.id);
const attemptsOf = async (t: TestApp, ids: string[]): Promise<number> =>
  Number((await t.db.query(`SELECT count(*) AS n FROM webhook_attempts WHERE event_id = ANY($1::uuid[])`, [ids]))[0].n);

describe('webhooks: the delivery log’s retention', () => {
  let t: TestApp;
  let a: Requester;
  let b: Requester;
  beforeAll(async () => {
    t = await startTestApp({ WEBHOOK_EVENT_RETENTION_DAYS: '30' });
    [a, b] = [await aRequester(t), await aRequester(t)];
  });
  afterAll(async () => {
    await t.close();
  });

  it('deletes every account’s ended events past the retention, with their attempts, and keeps pending and recent ones', async () => {
    const old = [
      await anEvent(t, a.accountId, 'delivered', 40, 2),
      await anEvent(t, a.accountId, 'failed', 31, 3),
      await anEvent(t, b.accountId, 'delivered', 365),
    ];
    const kept = [
      await anEvent(t, a.accountId, 'pending', 40, 4),
      await anEvent(t, a.accountId, 'delivered', 29),
      await anEvent(t, b.accountId, 'failed', 1),
    ];

    expect(await t.app.get(EventRetention).prune()).toBe(3);

    expect(await remaining(t, [...old, ...kept])).toEqual([...kept].sort());
    expect(await attemptsOf(t, old)).toBe(0);
    expect(await attemptsOf(t, kept)).toBe(6);
    const log = await t.request({ method: 'GET', url: '/api/console/webhooks/events', headers: a.auth });
    expect(log.body.data.map((event: { id: string }) => event.id).sort()).toEqual(kept.slice(0, 2).sort());
    const gone = await t.request({ method: 'POST', url: `/api/console/webhooks/events/${old[1]}/redeliver`, headers: a.auth });
    expect(gone.status).toBe(404);
  });

  it('goes on batch after batch until nothing old is left', async () => {
    await t.db.query(
      `INSERT INTO webhook_events (id, account_id, type, payload, state, created_at)
       SELECT gen_random_uuid(), $1, 'task_completed', '{}', 'delivered', now() - interval '60 days' FROM generate_series(1, 2500)`,
      [a.accountId],
    );
    expect(await t.app.get(EventRetention).prune()).toBe(2500);
    expect(await t.app.get(EventRetention).prune()).toBe(0);
  });

  it('keeps an old event that a redeliver made pending while the pass was deleting it', async () => {
    const id = await anEvent(t, a.accountId, 'failed', 31);
    // The redeliver and then the pass queue on this lock; the redeliver commits first.
    const holder = await pgPool(t.db).connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM webhook_events WHERE id = $1 FOR UPDATE', [id]);
      const waitingOn = (like: string) => async () =>
        (await t.db.query(`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1`, [like])).length > 0;
      const redeliver = t.request({ method: 'POST', url: `/api/console/webhooks/events/${id}/redeliver`, headers: a.auth });
      await eventually(waitingOn('%redeliveries + 1%'));
      const pass = t.app.get(EventRetention).prune();
      await eventually(waitingOn('DELETE FROM webhook_events%'));
      await holder.query('COMMIT');
      expect((await redeliver).status).toBe(202);
      await pass;
    } finally {
      holder.release();
    }
    // The pass re-checks the row it waited for: pending then, so it stays, redelivered (its job may have
    // run since: this event has no address, so it is failed again at once).
    expect(await t.db.query('SELECT redeliveries FROM webhook_events WHERE id = $1', [id])).toEqual([{ redeliveries: 1 }]);
  });

  it('keeps everything when WEBHOOK_EVENT_RETENTION_DAYS is 0', async () => {
    const ancient = await anEvent(t, a.accountId, 'delivered', 3000);
    const keepAll = new EventRetention(t.db, { ...t.app.get<AppConfig>(APP_CONFIG), WEBHOOK_EVENT_RETENTION_DAYS: 0 });
    expect(await keepAll.prune()).toBe(0);
    expect(await remaining(t, [ancient])).toEqual([ancient]);
  });
});
