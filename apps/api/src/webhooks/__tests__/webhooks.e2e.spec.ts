import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { A_BOX, aRequester, aTask, checkOut, completeTaskWithCallback, signUp, type Requester, type SignedIn } from '../../../test/factories';
import { createTestDatabase, dropTestDatabase } from '../../../test/test-database';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { eventually } from '../../../test/eventually';
import { startPrivateRedis } from '../../../test/private-redis';
import { echoChallenge, WebhookReceiver, type ReceivedRequest } from '../../../test/webhook-receiver';
import { within } from '../../common/within';
import type { WebhookDeliveryJob } from '@crowdbox/contracts';
import type { Job } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { pgPool } from '../../database/prepared-statement';
import { DeliveryBatches } from '../delivery-batches';
import { OutboxRelay } from '../outbox-relay';
import { WebhookDeliveryProcessor } from '../webhook-delivery.processor';
import { WebhookJobs } from '../webhook-jobs';

/** Short retries so a whole schedule runs in seconds (never sleeps of real minutes). */
const FAST = {
  WEBHOOK_RETRY_SCHEDULE_SECONDS: '0.2,0.3,0.5,1,1.5',
  WEBHOOK_RELAY_INTERVAL_MS: '100',
  WEBHOOK_RELAY_GRACE_MS: '300',
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
};

const secretOf = async (t: TestApp, r: Requester): Promise<string> =>
  (await t.request({ method: 'GET', url: '/api/console/webhooks', headers: r.auth })).body.data.signing_secret;
const eventLog = async (t: TestApp, r: Requester) =>
  (await t.request({ method: 'GET', url: '/api/console/webhooks/events', headers: r.auth })).body.data;
const statuses = (event: { attempts: Array<{ status_code: number | null }> }) => event.attempts.map((a) => a.status_code);

describe('webhooks', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let worker: SignedIn;
  beforeAll(async () => {
    t = await startTestApp(FAST);
    receiver = await new WebhookReceiver().start();
    worker = await signUp(t);
  });
  afterAll(async () => {
    await receiver.stop();
    await t.close();
  });

  it('confirms a new address by challenge, then sends the signed task_completed event', async () => {
    const r = await aRequester(t);
    const taskId = await completeTaskWithCallback(t, r, worker, receiver.url('/first'));
    const events = (await eventually(() => receiver.events('/first').length === 1 && receiver.events('/first'))) || [];
    expect(events).toHaveLength(1);
    const [challenge] = receiver.at('/first');
    expect(challenge.json).toEqual({ event: 'challenge', data: { token: expect.any(String) } });
    expect(receiver.at('/first').indexOf(challenge)).toBe(0);

    const event = events[0] as ReceivedRequest;
    // Verified as a receiver would, with the Standard Webhooks reference library.
    const verified = new Webhook(await secretOf(t, r)).verify(event.body, event.headers as Record<string, string>);
    expect(verified).toEqual(event.json);
    expect(event.headers['webhook-id']).toBe(event.json?.id);
    expect(Math.abs(Number(event.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
    expect(Object.keys(event.json ?? {})).toEqual(['event', 'id', 'created_at', 'data']);
    expect(Object.keys((event.json?.data?.task as object) ?? {})).toEqual([
      'prompt', 'task_uuid', 'reward', 'callback_url', 'required_submissions', 'submission_count', 'checked_out_at',
      'allowed_completion_time_seconds', 'external_image_url', 'submissions',
    ]);
    expect(event.json?.data).toMatchObject({
      task: { task_uuid: taskId, submission_count: 1, required_submissions: 1, callback_url: receiver.url('/first') },
      annotations: { task_uuid: taskId, completed: true, annotations: [{ ...A_BOX, support: 1, agreement: 1 }] },
    });
    expect(() => new Webhook('whsec_' + Buffer.alloc(32, 1).toString('base64')).verify(event.body, event.headers as Record<string, string>)).toThrow();

    const settings = (await t.request({ method: 'GET', url: '/api/console/webhooks', headers: r.auth })).body.data;
    expect(settings.signing_secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(settings.endpoints).toEqual([expect.objectContaining({ url: receiver.url('/first'), state: 'confirmed', confirmed_at: expect.any(String) })]);
    const [logged] = await eventually(async () => {
      const log = await eventLog(t, r);
      return log[0]?.state === 'delivered' && log;
    });
    expect(logged).toMatchObject({ id: event.json?.id, task_uuid: taskId, state: 'delivered', attempt_count: 1 });
    expect(statuses(logged)).toEqual([200]);
  });

  it('rotates the signing secret: both secrets sign for a day, then only the new one', async () => {
    const r = await aRequester(t);
    const verifies = (secret: string, event: ReceivedRequest) => {
      try {
        new Webhook(secret).verify(event.body, event.headers as Record<string, string>);
        return true;
      } catch {
        return false;
      }
    };
    const deliveredTo = async (path: string, n: number) =>
      ((await eventually(() => receiver.events(path).length === n && receiver.events(path))) || [])[n - 1] as ReceivedRequest;
    const old = await secretOf(t, r);
    await completeTaskWithCallback(t, r, worker, receiver.url('/rotating'));
    expect((await deliveredTo('/rotating', 1)).headers['webhook-signature']).toMatch(/^v1,\S+$/);

    const rotated = await t.request({ method: 'POST', url: '/api/console/webhooks/signing-secret/rotate', headers: r.auth, body: {} });
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.data.signing_secret;
    expect(fresh).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(fresh).not.toBe(old);
    const overlapEnds = Date.parse(rotated.body.data.previous_secret_expires_at) - Date.now();
    expect(overlapEnds).toBeGreaterThan(23.9 * 3600_000);
    expect(overlapEnds).toBeLessThanOrEqual(24 * 3600_000);
    expect((await t.request({ method: 'GET', url: '/api/console/webhooks', headers: r.auth })).body.data).toMatchObject({
      signing_secret: fresh,
      previous_secret_expires_at: rotated.body.data.previous_secret_expires_at,
    });

    // During the overlap every delivery carries both signatures: a verifier with either secret accepts it.
    await completeTaskWithCallback(t, r, worker, receiver.url('/rotating'));
    const during = await deliveredTo('/rotating', 2);
    expect(during.headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
    expect([verifies(fresh, during), verifies(old, during)]).toEqual([true, true]);

    // Once the overlap is over, only the new secret signs.
    await t.db.query(`UPDATE accounts SET webhook_previous_secret_expires_at = now() - interval '1 second' WHERE id = $1`, [r.accountId]);
    expect((await secretOf(t, r))).toBe(fresh);
    expect((await t.request({ method: 'GET', url: '/api/console/webhooks', headers: r.auth })).body.data.previous_secret_expires_at).toBeNull();
    await completeTaskWithCallback(t, r, worker, receiver.url('/rotating'));
    const after = await deliveredTo('/rotating', 3);
    expect(after.headers['webhook-signature']).toMatch(/^v1,\S+$/);
    expect([verifies(fresh, after), verifies(old, after)]).toEqual([true, false]);

    expect((await t.request({ method: 'POST', url: '/api/console/webhooks/signing-secret/rotate', body: {} })).status).toBe(401);
  });

  it('sends the consensus stored at completion, or the one of the project’s threshold when it changed since', async () => {
    // The challenge is held (503) until both tasks are complete and their stored consensus doctored, so
    // the event bodies are built afterwards, from what is stored then.
    let open = false;
    const hold = (req: ReceivedRequest, nth: number) => (req.json?.event === 'challenge' && !open ? { status: 503 } : echoChallenge(req, nth));
    receiver.on('/stored', hold);
    receiver.on('/rethreshold', hold);
    const marker = [{ label: 'car', center_x: 11, center_y: 22, width: 7, height: 4, support: 9, agreement: 0.5 }];
    const kept = await aRequester(t);
    const keptTask = await completeTaskWithCallback(t, kept, worker, receiver.url('/stored'));
    const changed = await aRequester(t);
    const changedTask = await completeTaskWithCallback(t, changed, worker, receiver.url('/rethreshold'));
    await t.db.query('UPDATE tasks SET consensus = $2::json WHERE id = ANY($1)', [[keptTask, changedTask], JSON.stringify(marker)]);
    const patched = await t.request({ method: 'PATCH', url: `/api/console/projects/${changed.projectUuid}`, headers: changed.auth, body: { consensus_iou_threshold: 0.7 } });
    expect(patched.status).toBe(200);
    open = true;

    const [stored] = (await eventually(() => receiver.events('/stored').length === 1 && receiver.events('/stored'))) || [];
    expect(stored?.json?.data).toMatchObject({ annotations: { task_uuid: keptTask, annotations: marker } });
    const [recomputed] = (await eventually(() => receiver.events('/rethreshold').length === 1 && receiver.events('/rethreshold'))) || [];
    expect(recomputed?.json?.data).toMatchObject({ annotations: { task_uuid: changedTask, annotations: [{ ...A_BOX, support: 1, agreement: 1 }] } });
  });

  it('completes a task without waiting on its account’s row or its callback address’s row', async () => {
    // Every completion of an account writes an event naming the same account and address; a foreign key
    // to them would lock both rows on each insert (FOR KEY SHARE), so hundreds of completions in flight
    // would pile their locks onto two rows (migration 1764900000000). Here another transaction holds
    // both rows FOR UPDATE, which such a key's lock would have to wait for.
    const r = await aRequester(t);
    const taskId = await aTask(t, r, { required_submissions: 1, callback_url: receiver.url('/unlocked') });
    const lease = await checkOut(t, worker, r.projectUuid);
    expect(lease.task_uuid).toBe(taskId);

    const holder = t.db.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    try {
      const held = await holder.query(
        `SELECT t.callback_endpoint_id FROM tasks t JOIN projects p ON p.id = t.project_id JOIN accounts a ON a.id = p.account_id
          WHERE t.id = $1 FOR UPDATE OF a`,
        [taskId],
      );
      await holder.query(`SELECT 1 FROM webhook_endpoints WHERE id = $1 FOR UPDATE`, [held[0].callback_endpoint_id]);
      const submit = t.request({
        method: 'POST',
        url: `/api/work/checkouts/${lease.checkout_id}/submit`,
        headers: worker.auth,
        body: { annotations: [A_BOX], image_width: 640, image_height: 480 },
      });
      const outcome = await within(submit.then((res) => res.status), 3000, 'still waiting');
      expect(outcome).toBe(201);
    } finally {
      await holder.rollbackTransaction();
      await holder.release();
    }
    const [event] = (await eventually(() => receiver.events('/unlocked').length === 1 && receiver.events('/unlocked'))) || [];
    expect(event?.json?.data).toMatchObject({ task: { task_uuid: taskId } });
  });

  it('delivers at once an event whose address is confirmed while its job is parking it', async () => {
    // The challenge is answered 503 with a long Retry-After, so nothing but this test confirms the address.
    receiver.on('/racing', (req) => (req.json?.event === 'challenge' ? { status: 503, headers: { 'retry-after': '600' } } : { status: 200 }));
    const r = await aRequester(t);
    const taskId = await completeTaskWithCallback(t, r, worker, receiver.url('/racing'));
    const parked = await eventually(async () => {
      const rows = await t.db.query(`SELECT id, endpoint_id FROM webhook_events WHERE task_id = $1 AND next_attempt_at IS NULL`, [taskId]);
      return rows[0] as { id: string; endpoint_id: string } | undefined;
    });
    expect(parked).toBeDefined();
    await eventually(() => receiver.at('/racing').length >= 1); // the first challenge went out and failed

    // A challenge that succeeds concurrently: the endpoint confirmed, not yet committed, while a job reads
    // the event as still waiting; it then releases the event (next_attempt_at) and commits. Its enqueue
    // would find that job still active and add nothing, so the job itself must deliver.
    const challenge = t.db.createQueryRunner();
    await challenge.connect();
    await challenge.startTransaction();
    await challenge.query(`UPDATE webhook_endpoints SET state = 'confirmed', confirmed_at = now() WHERE id = $1`, [parked?.endpoint_id]);
    const processor = t.app.get(WebhookDeliveryProcessor);
    const result = processor.process({ data: { eventId: parked?.id } } as Job<WebhookDeliveryJob>);
    await sleep(300); // the job has read the event and waits on the endpoint's row lock
    // clock_timestamp(), not now(): now() is this transaction's start, 300 ms back, which would make the
    // released event overdue past the relay's grace at once, and the relay would send it beside the job
    // (a real challenge's transaction is short, so its now() is the moment of the release).
    await challenge.query(`UPDATE webhook_events SET next_attempt_at = clock_timestamp() WHERE id = $1`, [parked?.id]);
    await challenge.commitTransaction();
    await challenge.release();

    expect(await result).toBe('delivered');
    expect(receiver.events('/racing')).toHaveLength(1);
    expect(receiver.events('/racing')[0].json?.id).toBe(parked?.id);
  });

  it('sends no data to an address that answers the challenge with the wrong token', async () => {
    const r = await aRequester(t);
    receiver.on('/liar', (req) => (req.json?.event === 'challenge' ? { status: 200, body: { token: 'not-it' } } : { status: 200 }));
    await completeTaskWithCallback(t, r, worker, receiver.url('/liar'));
    await eventually(() => receiver.at('/liar').length >= 3);
    expect(receiver.at('/liar').length).toBeGreaterThanOrEqual(3);
    expect(receiver.events('/liar')).toEqual([]);
    const settings = (await t.request({ method: 'GET', url: '/api/console/webhooks', headers: r.auth })).body.data;
    expect(settings.endpoints[0]).toMatchObject({ state: 'pending', last_error: expect.stringContaining('token') });
  });

  it('retries a 500 and delivers on the 200 after, with every attempt logged', async () => {
    const r = await aRequester(t);
    receiver.on('/flaky', (req, nth) =>
      req.json?.event === 'challenge' ? { status: 200, body: { token: req.json.data?.token } } : nth === 2 ? { status: 500, body: 'oops' } : { status: 200 },
    );
    await completeTaskWithCallback(t, r, worker, receiver.url('/flaky'));
    const [event] = await eventually(async () => {
      const log = await eventLog(t, r);
      return log[0]?.state === 'delivered' && log;
    });
    expect(statuses(event)).toEqual([500, 200]);
    expect(event.attempts[0].response_excerpt).toBe('"oops"');
    expect(receiver.events('/flaky')).toHaveLength(2);
    expect(new Set(receiver.events('/flaky').map((e) => e.headers['webhook-id'])).size).toBe(1);
    expect(receiver.events('/flaky')[0].body).toBe(receiver.events('/flaky')[1].body);
  });

  it('logs a reply holding a NUL byte and invalid UTF-8 once, instead of failing to record it and resending for ever', async () => {
    const r = await aRequester(t);
    receiver.on('/binary', (req) =>
      req.json?.event === 'challenge' ? { status: 200, body: { token: req.json.data?.token } } : { status: 200, body: Buffer.from([0x6f, 0x6b, 0x00, 0xff, 0x21]) },
    );
    await completeTaskWithCallback(t, r, worker, receiver.url('/binary'));
    const [event] = await eventually(async () => {
      const log = await eventLog(t, r);
      return log[0]?.state === 'delivered' && log;
    });
    expect(statuses(event)).toEqual([200]);
    expect(event.attempts[0].response_excerpt).toBe('ok\uFFFD\uFFFD!');
    // Several relay intervals and graces later, still the one delivery.
    await sleep(1000);
    expect(receiver.events('/binary')).toHaveLength(1);
  });

  it('ends an event on a 400 without retrying, and redelivers it from the console', async () => {
    const r = await aRequester(t);
    let refuse = true;
    receiver.on('/strict', (req) =>
      req.json?.event === 'challenge' ? { status: 200, body: { token: req.json.data?.token } } : refuse ? { status: 400 } : { status: 204 },
    );
    await completeTaskWithCallback(t, r, worker, receiver.url('/strict'));
    const [failed] = await eventually(async () => {
      const log = await eventLog(t, r);
      return log[0]?.state === 'failed' && log;
    });
    expect(statuses(failed)).toEqual([400]);
    await sleep(600);
    expect(receiver.events('/strict')).toHaveLength(1);

    refuse = false;
    const again = await t.request({ method: 'POST', url: `/api/console/webhooks/events/${failed.id}/redeliver`, headers: r.auth });
    expect(again.status).toBe(202);
    const [delivered] = await eventually(async () => {
      const log = await eventLog(t, r);
      return log[0]?.state === 'delivered' && log;
    });
    expect(statuses(delivered)).toEqual([400, 204]);
    const stranger = await signUp(t);
    expect((await t.request({ method: 'POST', url: `/api/console/webhooks/events/${failed.id}/redeliver`, headers: stranger.auth })).status).toBe(404);
  });

  it('redelivers every failed event of the account at once, and only that account’s', async () => {
    const r = await aRequester(t);
    let down = true;
    receiver.on('/was-down', (req) =>
      req.json?.event === 'challenge' ? { status: 200, body: { token: req.json.data?.token } } : down ? { status: 410 } : { status: 204 },
    );
    const tasks = [await completeTaskWithCallback(t, r, worker, receiver.url('/was-down')), await completeTaskWithCallback(t, r, worker, receiver.url('/was-down'))];
    await eventually(async () => {
      const log = await eventLog(t, r);
      return log.length === 2 && log.every((e: { state: string }) => e.state === 'failed');
    });
    const other = await aRequester(t);
    receiver.on('/other', (req) => (req.json?.event === 'challenge' ? { status: 200, body: { token: req.json.data?.token } } : { status: 410 }));
    await completeTaskWithCallback(t, other, worker, receiver.url('/other'));
    await eventually(async () => (await eventLog(t, other))[0]?.state === 'failed');

    down = false;
    const again = await t.request({ method: 'POST', url: '/api/console/webhooks/events/redeliver-failed', headers: r.auth, body: {} });
    expect(again.status).toBe(202);
    expect(again.body.data).toEqual({ redelivered: 2, more: false });
    const log = await eventually(async () => {
      const events = await eventLog(t, r);
      return events.every((e: { state: string }) => e.state === 'delivered') && events;
    });
    expect(log.map(statuses)).toEqual([[410, 204], [410, 204]]);
    expect(new Set(log.map((e: { task_uuid: string }) => e.task_uuid))).toEqual(new Set(tasks));
    await sleep(300);
    expect((await eventLog(t, other))[0]).toMatchObject({ state: 'failed', attempt_count: 1 });
    const nothingLeft = await t.request({ method: 'POST', url: '/api/console/webhooks/events/redeliver-failed', headers: r.auth, body: {} });
    expect(nothingLeft.body.data).toEqual({ redelivered: 0, more: false });
  });

  it('honours Retry-After on a 429', async () => {
    const r = await aRequester(t);
    receiver.on('/busy', (req, nth) =>
      req.json?.event === 'challenge'
        ? { status: 200, body: { token: req.json.data?.token } }
        : nth === 2
          ? { status: 429, headers: { 'retry-after': '2' } }
          : { status: 200 },
    );
    await completeTaskWithCallback(t, r, worker, receiver.url('/busy'));
    const events = (await eventually(() => receiver.events('/busy').length === 2 && receiver.events('/busy'))) || [];
    expect(events).toHaveLength(2);
    // The schedule says 0.2 s; the receiver asked for 2 s.
    expect(events[1].at - events[0].at).toBeGreaterThanOrEqual(1900);
  });

  it('reads and records the deliveries that meet in one turn of the event loop with one statement each; a row that fails fails alone', async () => {
    const r = await aRequester(t);
    for (let i = 0; i < 3; i += 1) await completeTaskWithCallback(t, r, worker, receiver.url('/batched'));
    const ids: string[] = (await eventually(async () => {
      const log = await eventLog(t, r);
      return log.length === 3 && log.every((e: { state: string }) => e.state === 'delivered') && log;
    })).map((e: { id: string }) => e.id);

    const batches = new DeliveryBatches(t.db);
    const query = jest.spyOn(pgPool(t.db), 'query');
    try {
      const missing = '00000000-0000-4000-8000-000000000000';
      const read = await Promise.all([...ids, missing].map((id) => batches.readEvent(id)));
      expect(read.map((e) => e?.event_id)).toEqual([...ids, undefined]);
      expect(read[0]).toMatchObject({ event_state: 'delivered', url: receiver.url('/batched'), endpoint_state: 'confirmed' });

      const record = (eventId: string) => ({
        attemptId: randomUUID(), eventId, statusCode: 200, durationMs: 7, error: null, excerpt: 'ok',
        attemptCount: 2, state: 'delivered' as const, delayMs: 0, body: '{}', redeliveries: 0,
      });
      const recorded = await Promise.allSettled([record(ids[0]), record(missing), record(ids[1])].map((a) => batches.recordAttempt(a)));
      expect(recorded.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      // One read for four ids, one write for three rows, then each row alone after the write failed.
      const names = query.mock.calls.map(([q]) => (q as unknown as { name?: string }).name).filter((n) => n?.startsWith('webhook_delivery_'));
      expect(names).toEqual([
        'webhook_delivery_read_events',
        'webhook_delivery_record_attempts', 'webhook_delivery_record_attempts', 'webhook_delivery_record_attempts', 'webhook_delivery_record_attempts',
      ]);
    } finally {
      query.mockRestore();
    }
    const log = await eventLog(t, r);
    const attempts = (id: string) => log.find((e: { id: string }) => e.id === id).attempt_count;
    expect([attempts(ids[0]), attempts(ids[1]), attempts(ids[2])]).toEqual([2, 2, 1]);
  });

  it('keeps retrying while the receiver is down and delivers once it is back', async () => {
    const r = await aRequester(t);
    const other = await new WebhookReceiver().start();
    const port = other.port;
    await completeTaskWithCallback(t, r, worker, other.url('/later'));
    await eventually(() => other.events('/later').length === 1);
    await other.stop();

    await completeTaskWithCallback(t, r, worker, `http://127.0.0.1:${port}/later`);
    await eventually(async () => (await eventLog(t, r))[0]?.attempt_count >= 2);
    const back = await new WebhookReceiver().start(port);
    try {
      const events = (await eventually(() => back.events('/later').length === 1 && back.events('/later'))) || [];
      expect(events).toHaveLength(1);
      const [latest] = await eventually(async () => {
        const log = await eventLog(t, r);
        return log[0]?.state === 'delivered' && log;
      });
      expect(latest.attempts.slice(0, -1).every((a: { status_code: number | null; error: string }) => a.status_code === null && a.error)).toBe(true);
      expect(statuses(latest).at(-1)).toBe(200);
    } finally {
      await back.stop();
    }
  });
});

describe('webhooks: requests in flight to one receiver', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let worker: SignedIn;
  beforeAll(async () => {
    t = await startTestApp({ ...FAST, WEBHOOK_CONCURRENCY: '10', WEBHOOK_RECEIVER_CONCURRENCY: '2', WEBHOOK_TIMEOUT_MS: '2000' });
    receiver = await new WebhookReceiver().start();
    worker = await signUp(t);
  });
  afterAll(async () => {
    await receiver.stop();
    await t.close();
  });

  it('sends at most WEBHOOK_RECEIVER_CONCURRENCY at once, and a delivery’s wait for its turn does not count against its timeout', async () => {
    const r = await aRequester(t);
    await completeTaskWithCallback(t, r, worker, receiver.url('/slow'));
    await eventually(() => receiver.events('/slow').length === 1);

    // Each reply takes 0.8 s of the 2 s allowed (room for a loaded machine); eight events, two at a
    // time, means the last ones wait 2.4 s for their turn, past the 2 s. They must still be delivered at
    // the first attempt.
    let inFlight = 0;
    let most = 0;
    receiver.on('/slow', async (req) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await sleep(800);
      inFlight -= 1;
      return echoChallenge(req, 0);
    });
    for (let i = 0; i < 8; i += 1) await completeTaskWithCallback(t, r, worker, receiver.url('/slow'));
    const log = await eventually(async () => {
      const events = await eventLog(t, r);
      return events.length === 9 && events.every((e: { state: string }) => e.state !== 'pending') && events;
    }, 15_000);
    expect(receiver.events('/slow').length).toBe(9);
    expect(most).toBe(2);
    for (const event of log) {
      expect(event).toMatchObject({ state: 'delivered', attempt_count: 1 });
      expect(event.attempts[0].duration_ms).toBeLessThan(2000);
    }
  });
});

describe('webhooks: redelivering an event while its attempt is in flight', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let worker: SignedIn;
  beforeAll(async () => {
    // A long second step: an event left on the old schedule would wait 30 s, well past the test's wait.
    t = await startTestApp({ ...FAST, WEBHOOK_RETRY_SCHEDULE_SECONDS: '0.2,30,30' });
    receiver = await new WebhookReceiver().start();
    worker = await signUp(t);
  });
  afterAll(async () => {
    await receiver.stop();
    await t.close();
  });

  /** Redelivers `path`'s event while the receiver holds its `held`th event request, which it answers `heldStatus`. */
  async function redeliverDuring(path: string, held: number, heldStatus: number) {
    const r = await aRequester(t);
    let release: () => void = () => undefined;
    const holding = new Promise<void>((resolve) => (release = resolve));
    let arrived: () => void = () => undefined;
    const heldArrived = new Promise<void>((resolve) => (arrived = resolve));
    receiver.on(path, async (req, nth) => {
      if (req.json?.event === 'challenge') return echoChallenge(req, nth);
      const attempt = receiver.events(path).length;
      if (attempt < held) return { status: 503 };
      if (attempt === held) {
        arrived();
        await holding;
        return { status: heldStatus };
      }
      return { status: 200 };
    });
    await completeTaskWithCallback(t, r, worker, receiver.url(path));
    await heldArrived;
    const [event] = await eventLog(t, r);
    const again = await t.request({ method: 'POST', url: `/api/console/webhooks/events/${event.id}/redeliver`, headers: r.auth });
    expect(again.status).toBe(202);
    release();
    const [delivered] = await eventually(async () => {
      const log = await eventLog(t, r);
      return log[0]?.state === 'delivered' && log;
    }, 5000);
    return delivered;
  }

  it('starts the fresh schedule now when the attempt in flight ends in a retry, instead of the old schedule’s next step', async () => {
    const event = await redeliverDuring('/held-retry', 2, 503);
    expect(statuses(event)).toEqual([503, 503, 200]);
    expect(event.attempt_count).toBe(1);
  });

  it('sends again when the attempt in flight ends the event as failed, instead of leaving it failed', async () => {
    const event = await redeliverDuring('/held-refusal', 1, 400);
    expect(statuses(event)).toEqual([400, 200]);
    expect(event.attempt_count).toBe(1);
  });
});

describe('webhooks: redelivering an event whose job is just ending', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let worker: SignedIn;
  beforeAll(async () => {
    // The relay would find the event only after 10 minutes: what sends it again here is the redeliver.
    t = await startTestApp({ ...FAST, WEBHOOK_RELAY_INTERVAL_MS: '600000', WEBHOOK_RELAY_GRACE_MS: '600000' });
    receiver = await new WebhookReceiver().start();
    worker = await signUp(t);
  });
  afterAll(async () => {
    await receiver.stop();
    await t.close();
  });

  it('sends again when the redeliver lands after the attempt was recorded and before its job ended', async () => {
    const r = await aRequester(t);
    receiver.on('/ending', echoChallenge);
    // Hold the job between its attempt's record (committed) and its end, where a redeliver's add is a no-op.
    const batches = (t.app.get(WebhookDeliveryProcessor) as unknown as { batches: DeliveryBatches }).batches;
    const record = batches.recordAttempt.bind(batches);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let recorded: () => void = () => undefined;
    const wasRecorded = new Promise<void>((resolve) => (recorded = resolve));
    const spy = jest.spyOn(batches, 'recordAttempt').mockImplementationOnce(async (attempt) => {
      const applied = await record(attempt);
      recorded();
      await held;
      return applied;
    });
    try {
      await completeTaskWithCallback(t, r, worker, receiver.url('/ending'));
      await wasRecorded;
      const [event] = await eventLog(t, r);
      expect(event.state).toBe('delivered');
      const again = await t.request({ method: 'POST', url: `/api/console/webhooks/events/${event.id}/redeliver`, headers: r.auth });
      expect(again.status).toBe(202);
      release();
      const log = await eventually(async () => {
        const events = await eventLog(t, r);
        return events[0]?.state === 'delivered' && events[0].attempts.length === 2 && events;
      }, 5000);
      expect(statuses(log[0])).toEqual([200, 200]);
      expect(receiver.events('/ending')).toHaveLength(2);
    } finally {
      spy.mockRestore();
      release();
    }
  });

  it('sends again when the event id is sent in upper case, as its own id', async () => {
    // The job was added under the id as spelt in the URL, found no event by that spelling and was
    // skipped: the event waited for the relay (here 10 minutes), and a delayed retry's job was not replaced.
    const r = await aRequester(t);
    receiver.on('/upper', echoChallenge);
    await completeTaskWithCallback(t, r, worker, receiver.url('/upper'));
    const [event] = await eventually(async () => {
      const events = await eventLog(t, r);
      return events[0]?.state === 'delivered' && events;
    }, 5000);
    const again = await t.request({ method: 'POST', url: `/api/console/webhooks/events/${event.id.toUpperCase()}/redeliver`, headers: r.auth });
    expect([again.status, again.body.data]).toEqual([202, { id: event.id, state: 'pending' }]);
    const log = await eventually(async () => {
      const events = await eventLog(t, r);
      return events[0]?.state === 'delivered' && events[0].attempts.length === 2 && events;
    }, 5000);
    expect(statuses(log[0])).toEqual([200, 200]);
    expect(receiver.events('/upper').map((request) => request.headers['webhook-id'])).toEqual([event.id, event.id]);
  });
});

describe('webhooks: a slow receiver', () => {
  let t: TestApp;
  let slow: WebhookReceiver;
  let quick: WebhookReceiver;
  let worker: SignedIn;
  beforeAll(async () => {
    t = await startTestApp({ ...FAST, WEBHOOK_CONCURRENCY: '3', WEBHOOK_RECEIVER_CONCURRENCY: '1', WEBHOOK_RECEIVER_WAIT_MS: '300', WEBHOOK_TIMEOUT_MS: '5000' });
    slow = await new WebhookReceiver().start();
    quick = await new WebhookReceiver().start();
    worker = await signUp(t);
  });
  afterAll(async () => {
    await slow.stop();
    await quick.stop();
    await t.close();
  });

  it('does not hold every delivery slot: another receiver’s event goes while it sits on its requests, and its own arrive unretried', async () => {
    const r = await aRequester(t);
    await completeTaskWithCallback(t, r, worker, slow.url('/stuck'));
    await completeTaskWithCallback(t, r, worker, quick.url('/quick'));
    await eventually(() => slow.events('/stuck').length === 1 && quick.events('/quick').length === 1);

    // 2 s a reply, one at a time: without giving up their slots, the slow receiver's deliveries (one
    // sent, two waiting) would fill all 3 and the quick receiver's event would wait about 2 s.
    slow.on('/stuck', async (req) => (await sleep(2000), echoChallenge(req, 0)));
    for (let i = 0; i < 4; i += 1) await completeTaskWithCallback(t, r, worker, slow.url('/stuck'));
    const completedAt = Date.now();
    await completeTaskWithCallback(t, r, worker, quick.url('/quick'));
    await eventually(() => quick.events('/quick').length === 2);
    expect(quick.events('/quick')[1].at - completedAt).toBeLessThan(1000);

    const log = await eventually(async () => {
      const events = await eventLog(t, r);
      return events.length === 7 && events.every((e: { state: string }) => e.state === 'delivered') && events;
    }, 30_000);
    expect(slow.events('/stuck').length).toBe(5);
    expect(log.map((e: { attempt_count: number }) => e.attempt_count)).toEqual([1, 1, 1, 1, 1, 1, 1]);
  });

  it('says when an event its receiver was too busy for goes next, so the relay does not take it for lost', async () => {
    const r = await aRequester(t);
    await completeTaskWithCallback(t, r, worker, slow.url('/later'));
    await eventually(() => slow.events('/later').length === 1);
    slow.on('/later', async (req) => (await sleep(2000), echoChallenge(req, 0)));
    for (let i = 0; i < 3; i += 1) await completeTaskWithCallback(t, r, worker, slow.url('/later'));

    // One request at a time, 2 s each, 300 ms of patience: two of the three go back to the queue unsent
    // for a second or more, and their rows say until when. They used to keep their first time, long
    // past, which the relay's pages (oldest overdue first) read as lost jobs, and the console showed as
    // the next attempt.
    const deferred = await eventually(async () => {
      const events: Array<{ state: string; next_attempt_at: string | null; attempt_count: number }> = await eventLog(t, r);
      return events.find((e) => e.state === 'pending' && e.attempt_count === 0 && e.next_attempt_at !== null && Date.parse(e.next_attempt_at) > Date.now());
    }, 10_000);
    expect(deferred).toBeTruthy();
    const log = await eventually(async () => {
      const events = await eventLog(t, r);
      return events.length === 4 && events.every((e: { state: string }) => e.state === 'delivered') && events;
    }, 30_000);
    expect(log.map((e: { attempt_count: number }) => e.attempt_count)).toEqual([1, 1, 1, 1]);
  });
});

describe('webhooks: an address that never confirms', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    t = await startTestApp({ ...FAST, WEBHOOK_RETRY_SCHEDULE_SECONDS: '0.1,0.1' });
    receiver = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    await receiver.stop();
    await t.close();
  });

  it('is marked failed after the schedule, re-armed by a later add_task, and then gets the events that waited', async () => {
    const r = await aRequester(t);
    const worker = await signUp(t);
    let honest = false;
    receiver.on('/rearm', (req) =>
      req.json?.event === 'challenge' ? { status: 200, body: { token: honest ? req.json.data?.token : 'nope' } } : { status: 200 },
    );
    const waited = await completeTaskWithCallback(t, r, worker, receiver.url('/rearm'));
    const failed = await eventually(async () => {
      const settings = (await t.request({ method: 'GET', url: '/api/console/webhooks', headers: r.auth })).body.data;
      return settings.endpoints[0]?.state === 'failed' && settings.endpoints[0];
    });
    expect(failed).toMatchObject({ state: 'failed' });
    expect(receiver.at('/rearm')).toHaveLength(3);
    expect(receiver.events('/rearm')).toEqual([]);

    honest = true;
    const second = await completeTaskWithCallback(t, r, worker, receiver.url('/rearm'));
    const events = (await eventually(() => receiver.events('/rearm').length === 2 && receiver.events('/rearm'))) || [];
    expect(events.map((e) => (e.json?.data?.task as { task_uuid: string }).task_uuid).sort()).toEqual([waited, second].sort());
  });
});

describe('webhooks: SSRF guard', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    t = await startTestApp({ ...FAST, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false', WEBHOOK_RETRY_SCHEDULE_SECONDS: '0.1' });
    receiver = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    await receiver.stop();
    await t.close();
  });

  it('refuses to connect to 127.0.0.1 or to a name that resolves to loopback', async () => {
    const r = await aRequester(t);
    const worker = await signUp(t);
    await completeTaskWithCallback(t, r, worker, receiver.url('/inside'));
    await completeTaskWithCallback(t, r, worker, `http://localhost:${receiver.port}/inside-by-name`);
    const endpoints = await eventually(async () => {
      const list = (await t.request({ method: 'GET', url: '/api/console/webhooks', headers: r.auth })).body.data.endpoints;
      return list.length === 2 && list.every((e: { state: string }) => e.state === 'failed') && list;
    });
    expect(endpoints.map((e: { last_error: string }) => e.last_error)).toEqual([
      expect.stringMatching(/refused: 127\.0\.0\.1 is a private or reserved address/),
      expect.stringMatching(/localhost resolves to .* a private or reserved address/),
    ]);
    expect(receiver.requests).toEqual([]);
  });
});

describe('webhooks: redelivering failed events in bulk', () => {
  it('takes 10,000 a call, oldest first, and says when more are left', async () => {
    const t = await startTestApp({ ...FAST, WEBHOOK_RELAY_INTERVAL_MS: '600000' });
    try {
      const r = await aRequester(t);
      await t.app.get(WebhookDeliveryProcessor).worker.pause();
      await t.db.query(
        `INSERT INTO webhook_events (id, account_id, type, payload, state, created_at)
         SELECT gen_random_uuid(), $1, 'task_completed', '{}', 'failed', now() - i * interval '1 second' FROM generate_series(1, 10001) i`,
        [r.accountId],
      );
      const newest = (await t.db.query(`SELECT id FROM webhook_events WHERE account_id = $1 ORDER BY created_at DESC LIMIT 1`, [r.accountId]))[0].id;
      const first = await t.request({ method: 'POST', url: '/api/console/webhooks/events/redeliver-failed', headers: r.auth, body: {} });
      expect(first.body.data).toEqual({ redelivered: 10_000, more: true });
      expect((await t.db.query(`SELECT id FROM webhook_events WHERE account_id = $1 AND state = 'failed'`, [r.accountId])).map((e: { id: string }) => e.id)).toEqual([newest]);
      const queued = await t.app.get(WebhookJobs).deliveries.getJobCounts('waiting', 'prioritized', 'delayed', 'active');
      expect(Object.values(queued).reduce((a, b) => a + b, 0)).toBe(10_000);
      const second = await t.request({ method: 'POST', url: '/api/console/webhooks/events/redeliver-failed', headers: r.auth, body: {} });
      expect(second.body.data).toEqual({ redelivered: 1, more: false });
    } finally {
      await t.close();
    }
  }, 40_000);
});

describe('webhooks: nothing is lost between the database and Redis', () => {
  it('delivers an event committed by a process that died before enqueueing it, after the restart', async () => {
    const receiver = await new WebhookReceiver().start();
    const database = await createTestDatabase();
    try {
      // First life: HTTP only (no relay, no workers), and the post-commit enqueue never happens, as if
      // the process were killed right after the submit's commit.
      const first = await startTestApp(FAST, { database, role: 'http' });
      const r = await aRequester(first);
      const worker = await signUp(first);
      jest.spyOn(first.app.get(WebhookJobs), 'enqueueDelivery').mockImplementation(() => undefined);
      const taskId = await completeTaskWithCallback(first, r, worker, receiver.url('/crash'));
      expect(receiver.events('/crash')).toEqual([]);
      const [{ n }] = await first.db.query(`SELECT count(*)::int AS n FROM webhook_events WHERE state = 'pending'`);
      expect(n).toBe(1);
      await first.close();

      // Second life: a normal process on the same database (and a fresh Redis prefix: no jobs at all).
      const second = await startTestApp(FAST, { database });
      try {
        const events = (await eventually(() => receiver.events('/crash').length === 1 && receiver.events('/crash'))) || [];
        expect((events[0].json?.data?.task as { task_uuid: string }).task_uuid).toBe(taskId);
      } finally {
        await second.close();
      }
    } finally {
      await receiver.stop();
      await dropTestDatabase(database);
    }
  });

  it('puts a backlog larger than a page back on the queue in one pass, up to 10,000 jobs', async () => {
    const receiver = await new WebhookReceiver().start();
    // The relay's timer is out of the way: the test runs its passes itself.
    const t = await startTestApp({ ...FAST, WEBHOOK_RELAY_INTERVAL_MS: '600000' });
    try {
      const r = await aRequester(t);
      const worker = await signUp(t);
      await completeTaskWithCallback(t, r, worker, receiver.url('/backlog'));
      await eventually(() => receiver.events('/backlog').length === 1);
      await t.app.get(WebhookDeliveryProcessor).worker.pause();
      // 10,500 events whose jobs were lost (a flushed Redis), all overdue, several in the same millisecond.
      await t.db.query(
        `INSERT INTO webhook_events (id, account_id, endpoint_id, type, payload, state, next_attempt_at)
         SELECT gen_random_uuid(), e.account_id, e.endpoint_id, 'task_completed', '{}', 'pending', now() - interval '1 hour' - (i % 7) * interval '1 microsecond'
           FROM webhook_events e, generate_series(1, 10500) i LIMIT 10500`,
      );
      const relay = t.app.get(OutboxRelay);
      expect(await relay.tick()).toBe(10_000);
      const queued = await t.app.get(WebhookJobs).deliveries.getJobCounts('waiting', 'prioritized', 'delayed', 'active');
      expect(Object.values(queued).reduce((a, b) => a + b, 0)).toBe(10_000);
    } finally {
      await t.close();
      await receiver.stop();
    }
  }, 40_000);

  it('hands an overdue event whose address is gone to a job, which ends it, instead of passing it over for good', async () => {
    const t = await startTestApp({ ...FAST, WEBHOOK_RELAY_INTERVAL_MS: '600000' });
    try {
      const r = await aRequester(t);
      const [{ id }] = await t.db.query(
        `INSERT INTO webhook_events (id, account_id, type, payload, state, next_attempt_at)
         VALUES (gen_random_uuid(), $1, 'task_completed', '{}', 'pending', now() - interval '1 hour') RETURNING id`,
        [r.accountId],
      );
      expect(await t.app.get(OutboxRelay).tick()).toBe(1);
      const [ended] = await eventually(async () => {
        const rows = await t.db.query(`SELECT state, last_error FROM webhook_events WHERE id = $1`, [id]);
        return rows[0]?.state !== 'pending' && rows;
      });
      expect(ended).toEqual({ state: 'failed', last_error: 'the callback address no longer exists' });
    } finally {
      await t.close();
    }
  });

  it('delivers every event of tasks completed while Redis was stopped, once it is back', async () => {
    let redis = await startPrivateRedis();
    const receiver = await new WebhookReceiver().start();
    const t = await startTestApp({ ...FAST, REDIS_URL: redis.url });
    try {
      const r = await aRequester(t);
      const worker = await signUp(t);
      await completeTaskWithCallback(t, r, worker, receiver.url('/outage'));
      await eventually(() => receiver.events('/outage').length === 1);

      await redis.stop();
      const during = [];
      for (let i = 0; i < 3; i++) during.push(await completeTaskWithCallback(t, r, worker, receiver.url('/outage')));
      await sleep(500);
      expect(receiver.events('/outage')).toHaveLength(1);

      // Redis comes back empty (no persistence): the jobs are gone, the outbox is not.
      redis = await startPrivateRedis(redis.port);
      const events = (await eventually(() => receiver.events('/outage').length >= 4 && receiver.events('/outage'), 20_000)) || [];
      const delivered = new Set(events.map((e) => (e.json?.data?.task as { task_uuid: string }).task_uuid));
      for (const id of during) expect(delivered.has(id)).toBe(true);
    } finally {
      await t.close();
      await receiver.stop();
      await redis.stop();
    }
  }, 40_000);
});
