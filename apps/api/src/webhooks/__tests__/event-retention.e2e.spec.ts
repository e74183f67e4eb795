import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { eventually } from '../../../test/eventually';
import { aRequester, type Requester } from '../../../test/factories';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.schema';
import { pgPool } from '../../database/prepared-statement';
import { indexScans } from '../../../test/query-plan';
import { EventRetention, PRUNE_ENDED_EVENTS } from '../event-retention';

type State = 'pending' | 'delivered' | 'failed';

/**
 * A callback address of the account (every event is for an address, as add_task makes them): by default
 * the one address most tests here share, pending; the same url again is the same address.
 */
async function anEndpoint(
  t: TestApp,
  accountId: string,
  { url = 'https://hooks.example.com/crowdbox', state = 'pending' }: { url?: string; state?: 'pending' | 'confirmed' | 'failed' } = {},
): Promise<string> {
  const [{ id }] = await t.db.query(
    `INSERT INTO webhook_endpoints (id, account_id, url, state) VALUES ($1, $2, $3, $4)
     ON CONFLICT (account_id, url) DO UPDATE SET url = EXCLUDED.url RETURNING id`,
    [randomUUID(), accountId, url, state],
  );
  return id;
}

/** Writes an event of `ageDays` straight into the outbox, with `attempts` logged attempts. */
async function anEvent(t: TestApp, accountId: string, state: State, ageDays: number, attempts = 1): Promise<string> {
  const id = randomUUID();
  await t.db.query(
    `INSERT INTO webhook_events (id, account_id, endpoint_id, type, payload, state, attempt_count, created_at)
     VALUES ($1, $2, $3, 'task_completed', '{}', $4, $5, now() - make_interval(days => $6))`,
    [id, accountId, await anEndpoint(t, accountId), state, attempts, ageDays],
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
      `INSERT INTO webhook_events (id, account_id, endpoint_id, type, payload, state, created_at)
       SELECT gen_random_uuid(), $1, $2, 'task_completed', '{}', 'delivered', now() - interval '60 days' FROM generate_series(1, 2500)`,
      [a.accountId, await anEndpoint(t, a.accountId)],
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
      expect(await eventually(waitingOn('%redeliveries + 1%'))).toBe(true);
      const pass = t.app.get(EventRetention).prune();
      expect(await eventually(waitingOn('%DELETE FROM webhook_events%'))).toBe(true);
      await holder.query('COMMIT');
      expect((await redeliver).status).toBe(202);
      await pass;
    } finally {
      holder.release();
    }
    // The pass re-checks the row it waited for: pending then, so it stays, redelivered (its job may have
    // run since: its address is unconfirmed, so it waits for it).
    expect(await t.db.query('SELECT redeliveries FROM webhook_events WHERE id = $1', [id])).toEqual([{ redeliveries: 1 }]);
  });

  it('probes the log of the accounts with a callback address only, not of every account', async () => {
    // Crowd workers' sign-ups make accounts with no address and no event: 2,000 of them here.
    await t.db.query(
      `INSERT INTO accounts (id, name, webhook_signing_secret)
       SELECT gen_random_uuid(), 'worker ' || n, 'whsec_x' FROM generate_series(1, 2000) n`,
    );
    await anEvent(t, a.accountId, 'delivered', 45);
    await anEvent(t, b.accountId, 'delivered', 45);
    const withAddress = Number((await t.db.query('SELECT count(DISTINCT account_id) AS n FROM webhook_endpoints'))[0].n);
    const probes = await indexScans(t.db, PRUNE_ENDED_EVENTS, [30, 1000], 'ix_webhook_events_account_created');
    // One probe per account with an address (the accounts table holds 2,000 more).
    expect(probes).toBe(withAddress);
    expect(await t.app.get(EventRetention).prune()).toBe(2);
  });

  it('deletes events that waited past the retention for an address that failed its challenge, and no other waiting event', async () => {
    const c = await aRequester(t);
    const address = (url: string, state: 'pending' | 'confirmed' | 'failed') => anEndpoint(t, c.accountId, { url, state });
    const [failed, pending, confirmed] = [
      await address('https://gone.example.com/', 'failed'),
      await address('https://slow.example.com/', 'pending'),
      await address('https://ok.example.com/', 'confirmed'),
    ];
    /** A pending event of `ageDays` for `endpoint`: parked (no next attempt) unless `due`. */
    const waiting = async (endpoint: string, ageDays: number, due = false) => {
      const id = randomUUID();
      await t.db.query(
        `INSERT INTO webhook_events (id, account_id, endpoint_id, type, payload, state, next_attempt_at, created_at)
         VALUES ($1, $2, $3, 'task_completed', '{}', 'pending', CASE WHEN $4 THEN now() END, now() - make_interval(days => $5))`,
        [id, c.accountId, endpoint, due, ageDays],
      );
      return id;
    };
    const abandoned = [await waiting(failed, 31), await waiting(failed, 400)];
    const kept = [
      await waiting(failed, 29), // within the retention: a re-arm may still release it
      await waiting(pending, 60), // its address is still being confirmed
      await waiting(confirmed, 60, true), // being delivered
    ];

    expect(await t.app.get(EventRetention).prune()).toBe(2);
    expect(await remaining(t, [...abandoned, ...kept])).toEqual([...kept].sort());
  });

  it('stops between batches at a shutdown, before the pool closes, and the shutdown waits for the batch', async () => {
    const own = await startTestApp({ WEBHOOK_EVENT_RETENTION_DAYS: '30' });
    const owner = await aRequester(own);
    await own.db.query(
      `INSERT INTO webhook_events (id, account_id, endpoint_id, type, payload, state, created_at)
       SELECT gen_random_uuid(), $1, $2, 'task_completed', '{}', 'delivered', now() - interval '60 days' FROM generate_series(1, 20000)`,
      [owner.accountId, await anEndpoint(own, owner.accountId)],
    );
    const warn = jest.spyOn(Logger.prototype, 'warn');
    try {
      const pass = own.app.get(EventRetention).prune();
      await own.close();
      // Twenty batches; the shutdown came after the first few. Before, the pass went on after TypeORM's
      // shutdown hook ended the pool, and its next batch failed ("Cannot use a pool after calling end").
      expect(await pass).toBeLessThan(20000);
      expect(warn.mock.calls.filter(([message]) => String(message).includes('webhook events'))).toEqual([]);
    } finally {
      warn.mockRestore();
    }
  });

  it('keeps everything when WEBHOOK_EVENT_RETENTION_DAYS is 0', async () => {
    const ancient = await anEvent(t, a.accountId, 'delivered', 3000);
    const keepAll = new EventRetention(t.db, { ...t.app.get<AppConfig>(APP_CONFIG), WEBHOOK_EVENT_RETENTION_DAYS: 0 });
    expect(await keepAll.prune()).toBe(0);
    expect(await remaining(t, [ancient])).toEqual([ancient]);
  });
});
