import { setTimeout as sleep } from 'node:timers/promises';
import { aRequester, aTask, type Requester } from '../../../test/factories';
import { eventually } from '../../../test/eventually';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { echoChallenge, SilentReceiver, WebhookReceiver } from '../../../test/webhook-receiver';
import { OutboxRelay } from '../outbox-relay';
import { challengeJobId, WebhookJobs } from '../webhook-jobs';

/**
 * Address confirmation (API.md §2) when some receivers never answer. Each silent request would hold its
 * challenge slot for WEBHOOK_TIMEOUT_MS (5 s here); a good address must be confirmed well before that.
 * Failed challenges are retried after a minute, past every test, and each test stops its silent
 * receivers at the end, so their requests end at once and hold nothing in the next test.
 */
const SETTINGS = {
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  WEBHOOK_RETRY_SCHEDULE_SECONDS: '60',
  WEBHOOK_TIMEOUT_MS: '5000',
  WEBHOOK_CHALLENGE_CONCURRENCY: '3',
  WEBHOOK_RECEIVER_CONCURRENCY: '1',
  WEBHOOK_RECEIVER_WAIT_MS: '300',
  WEBHOOK_CHALLENGE_ACCOUNT_CONCURRENCY: '1',
};
const WELL_UNDER_THE_TIMEOUT_MS = 2000;

/** Registers `url` for the requester's account through add_task (which schedules its challenge). */
async function register(t: TestApp, r: Requester, url: string): Promise<void> {
  await aTask(t, r, { callback_url: url });
}

describe('webhook challenges: receivers that never answer', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    t = await startTestApp(SETTINGS);
    receiver = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    await receiver.stop();
    await t.close();
  });

  const stateOf = async (r: Requester): Promise<string[]> =>
    (await t.db.query(`SELECT state FROM webhook_endpoints WHERE account_id = $1 ORDER BY created_at`, [r.accountId])).map((e: { state: string }) => e.state);
  /** How long after its registration a good address of a new account is confirmed. */
  const confirmationMs = async (path: string): Promise<number> => {
    const r = await aRequester(t);
    const started = Date.now();
    await register(t, r, receiver.url(path));
    await eventually(async () => (await stateOf(r))[0] === 'confirmed', 10_000, 20);
    expect(await stateOf(r)).toEqual(['confirmed']);
    return Date.now() - started;
  };
  const silentReceivers = async (n: number): Promise<SilentReceiver[]> => Promise.all(Array.from({ length: n }, () => new SilentReceiver().start()));

  it('confirms a good address while a never-answering one’s challenge is in flight', async () => {
    const [silent] = await silentReceivers(1);
    try {
      const stuck = await aRequester(t);
      await register(t, stuck, silent.url('/never'));
      await eventually(() => silent.accepted === 1);

      expect(await confirmationMs('/good-1')).toBeLessThan(WELL_UNDER_THE_TIMEOUT_MS);
      expect(await stateOf(stuck)).toEqual(['pending']);
      expect(silent.accepted).toBe(1);
    } finally {
      await silent.stop();
    }
  });

  it('does not let one receiver hold every challenge slot: its challenges beyond its limit go back to the queue', async () => {
    // Five accounts' addresses on one receiver that never answers: one request in flight (its limit),
    // and the other four must not wait in the three worker slots for it.
    const [silent] = await silentReceivers(1);
    try {
      for (let i = 0; i < 5; i += 1) await register(t, await aRequester(t), silent.url(`/shared-${i}`));
      await eventually(() => silent.accepted === 1);

      expect(await confirmationMs('/good-2')).toBeLessThan(WELL_UNDER_THE_TIMEOUT_MS);
      expect(silent.accepted).toBe(1);
    } finally {
      await silent.stop();
    }
  });

  it('does not let one account hold every challenge slot with many receivers that never answer', async () => {
    // One account, four receivers (four origins, so the limit per receiver does not apply): one of its
    // challenges in flight (its limit), the others back in the queue, leaving slots to other accounts.
    const silent = await silentReceivers(4);
    try {
      const flooding = await aRequester(t);
      const added = await t.request({
        method: 'POST',
        url: '/api/v1/projects/add_tasks',
        headers: { apikey: flooding.liveKey },
        body: { tasks: silent.map((s, i) => ({ project_uuid: flooding.projectUuid, substitutions: { object: 'car' }, callback_url: s.url(`/many-${i}`) })) },
      });
      expect(added.status).toBe(201);
      await eventually(() => silent.some((s) => s.accepted === 1));

      expect(await confirmationMs('/good-3')).toBeLessThan(WELL_UNDER_THE_TIMEOUT_MS);
      expect(silent.reduce((n, s) => n + s.accepted, 0)).toBe(1);
      expect(await stateOf(flooding)).toEqual(['pending', 'pending', 'pending', 'pending']);
      // And the rows of those back in the queue say when they go next: left at their registration, long
      // past, the relay's pages (oldest overdue first) took them for lost jobs, so an account with
      // thousands of such addresses filled every page and kept the relay from other accounts' challenges.
      // (attempt_count 0: not the one in flight, whose time out sets its retry's time.)
      const deferred = async (): Promise<number> =>
        Number(
          (await t.db.query(`SELECT count(*) AS n FROM webhook_endpoints WHERE account_id = $1 AND state = 'pending' AND attempt_count = 0 AND next_attempt_at > now()`, [flooding.accountId]))[0].n,
        );
      expect(await eventually(async () => (await deferred()) >= 1, 5000)).toBe(true);
    } finally {
      await Promise.all(silent.map((s) => s.stop()));
    }
  });
});

describe('webhook challenges: the events that waited for an address', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    // The relay runs when the test says (its timer and grace out of the way), so each pass can be counted.
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RELAY_INTERVAL_MS: '600000', WEBHOOK_RELAY_GRACE_MS: '600000' });
    receiver = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    await receiver.stop();
    await t.close();
  });

  it('releases them a page at a time, the first at the confirmation and the rest by the relay within its pass, and delivers every one', async () => {
    let open = false;
    receiver.on('/backlog', (req, nth) => (req.json?.event === 'challenge' && !open ? { status: 503, headers: { 'retry-after': '600' } } : echoChallenge(req, nth)));
    const r = await aRequester(t);
    await register(t, r, receiver.url('/backlog'));
    const [endpoint] = await eventually(async () => {
      const rows = await t.db.query(`SELECT id, attempt_count FROM webhook_endpoints WHERE account_id = $1`, [r.accountId]);
      return rows[0]?.attempt_count === 1 && rows;
    });
    expect(endpoint).toMatchObject({ attempt_count: 1 });
    // 3,000 events parked while the address waited (as the delivery job leaves them: pending, no next
    // attempt), and 8,500 overdue events of a gone address whose jobs were lost, which a pass takes first.
    await t.db.query(
      `INSERT INTO webhook_events (id, account_id, endpoint_id, type, payload, state, next_attempt_at, body)
       SELECT gen_random_uuid(), $1, $2, 'task_completed', '{}', 'pending', NULL, json_build_object('event', 'task_completed', 'n', i)::text
         FROM generate_series(1, 3000) i`,
      [r.accountId, endpoint.id],
    );
    await t.db.query(
      `INSERT INTO webhook_events (id, account_id, type, payload, state, next_attempt_at)
       SELECT gen_random_uuid(), $1, 'task_completed', '{}', 'pending', now() - interval '1 hour' FROM generate_series(1, 8500)`,
      [r.accountId],
    );
    const jobs = t.app.get(WebhookJobs);
    const relay = t.app.get(OutboxRelay);
    const adds = jest.spyOn(jobs, 'addDelivery');
    const parked = async () =>
      Number((await t.db.query(`SELECT count(*) FROM webhook_events WHERE endpoint_id = $1 AND state = 'pending' AND next_attempt_at IS NULL`, [endpoint.id]))[0].count);
    try {
      // The challenge succeeds (its retry brought forward): one page is released and enqueued, no more.
      open = true;
      await (await jobs.challenges.getJob(challengeJobId(endpoint.id)))?.promote();
      await eventually(() => adds.mock.calls.length >= 1000);
      await sleep(300);
      expect(adds).toHaveBeenCalledTimes(1000);
      expect(await parked()).toBe(2000);

      // A pass: the 8,500 lost jobs first, then parked events in whole pages, 10,000 jobs in all.
      adds.mockClear();
      expect(await relay.tick()).toBe(9500);
      expect(adds).toHaveBeenCalledTimes(9500);
      expect(await parked()).toBe(1000);
      // The 8,500 lost jobs run before the next pass, which would otherwise find them overdue again.
      const goneEnded = await eventually(async () => Number((await t.db.query(`SELECT count(*) FROM webhook_events WHERE account_id = $1 AND endpoint_id IS NULL AND state = 'pending'`, [r.accountId]))[0].count) === 0, 60_000);
      expect(goneEnded).toBe(true);
      expect(await relay.tick()).toBe(1000);
      expect(await parked()).toBe(0);
      // The page that finds nothing left ends the release.
      expect(await relay.tick()).toBe(0);
      expect((await t.db.query(`SELECT state, next_attempt_at FROM webhook_endpoints WHERE id = $1`, [endpoint.id]))[0]).toEqual({ state: 'confirmed', next_attempt_at: null });

      const delivered = await eventually(() => new Set(receiver.events('/backlog').map((e) => e.headers['webhook-id'])).size === 3000, 60_000);
      expect(delivered).toBe(true);
      // Each attempt is recorded after its reply arrived (in batches): the last few may still be on their way.
      const states = async () => t.db.query(`SELECT state, count(*)::int AS n FROM webhook_events WHERE endpoint_id = $1 GROUP BY state`, [endpoint.id]);
      await eventually(async () => (await states()).length === 1, 10_000);
      expect(await states()).toEqual([{ state: 'delivered', n: 3000 }]);
    } finally {
      adds.mockRestore();
    }
  }, 150_000);
});
