import { eventually } from '../../../test/eventually';
import { aRequester, completeTaskWithCallback, signUp, type Requester, type SignedIn } from '../../../test/factories';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { echoChallenge, WebhookReceiver } from '../../../test/webhook-receiver';

const TOKEN = 'metrics-token-for-tests';

/**
 * crowdbox_webhook_attempts_total (docs/running.md, "Metrics"): what the delivery and challenge processors
 * decided, counted as they decide it, against real receivers. Each receiver is its own port, so its
 * requests take turns only with its own (WEBHOOK_RECEIVER_CONCURRENCY is per receiver).
 */
describe('crowdbox_webhook_attempts_total', () => {
  let t: TestApp;
  let worker: SignedIn;
  const receivers: WebhookReceiver[] = [];
  beforeAll(async () => {
    t = await startTestApp({
      METRICS_TOKEN: TOKEN,
      WEBHOOK_RETRY_SCHEDULE_SECONDS: '0.2,0.3',
      WEBHOOK_RELAY_INTERVAL_MS: '100',
      WEBHOOK_RELAY_GRACE_MS: '300',
      // One request at a time per receiver, and none waits for its turn: a second is "busy" at once.
      WEBHOOK_RECEIVER_CONCURRENCY: '1',
      WEBHOOK_RECEIVER_WAIT_MS: '0',
    });
    worker = await signUp(t);
  });
  afterAll(async () => {
    await Promise.all(receivers.map((receiver) => receiver.stop()));
    await t.close();
  });

  const receiver = async () => {
    const started = await new WebhookReceiver().start();
    receivers.push(started);
    return started;
  };

  /** Every crowdbox_webhook_attempts_total sample, as `kind/outcome` -> count. */
  const attempts = async (): Promise<Record<string, number>> => {
    const res = await t.request({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    const counts: Record<string, number> = {};
    for (const [, kind, outcome, value] of res.text.matchAll(/^crowdbox_webhook_attempts_total\{kind="(\w+)",outcome="(\w+)"\} (\d+)$/gm)) {
      counts[`${kind}/${outcome}`] = Number(value);
    }
    return counts;
  };

  /** What changed since `before`: only the counts that moved. */
  const since = async (before: Record<string, number>) => {
    const now = await attempts();
    return Object.fromEntries(Object.entries(now).flatMap(([key, n]) => (n !== before[key] ? [[key, n - (before[key] ?? 0)]] : [])));
  };

  /** Completes one task (one submission) whose callback is `url`. */
  const completeTask = (r: Requester, url: string) => completeTaskWithCallback(t, r, worker, url);

  it('starts every kind and outcome at 0', async () => {
    expect(await attempts()).toEqual({
      'delivery/delivered': 0,
      'delivery/retry': 0,
      'delivery/failed': 0,
      'delivery/busy': 0,
      'challenge/confirmed': 0,
      'challenge/retry': 0,
      'challenge/failed': 0,
      'challenge/busy': 0,
    });
  });

  it('counts a confirmed address, a failed delivery tried again, and the delivery that then succeeds', async () => {
    const before = await attempts();
    const r = await aRequester(t);
    const flaky = await receiver();
    flaky.on('/hook', (req, nth) => (req.json?.event === 'task_completed' && nth === 2 ? { status: 503 } : echoChallenge(req, nth)));
    await completeTask(r, flaky.url('/hook'));
    expect(await eventually(() => flaky.events('/hook').length === 2, 10_000)).toBe(true);
    expect(await eventually(async () => (await since(before))['delivery/delivered'] === 1, 5_000)).toBe(true);
    expect(await since(before)).toEqual({ 'challenge/confirmed': 1, 'delivery/retry': 1, 'delivery/delivered': 1 });
  });

  it('counts a delivery refused for good (410), and a challenge tried on its schedule, then given up', async () => {
    const before = await attempts();
    const r = await aRequester(t);
    const gone = await receiver();
    gone.on('/hook', (req, nth) => (req.json?.event === 'task_completed' ? { status: 410 } : echoChallenge(req, nth)));
    await completeTask(r, gone.url('/hook'));
    const refusing = await receiver();
    refusing.on('/hook', () => ({ status: 500 }));
    await completeTask(r, refusing.url('/hook'));

    // Three challenges: the first try and the schedule's two retries.
    expect(await eventually(() => refusing.at('/hook').length === 3 && gone.events('/hook').length === 1, 10_000)).toBe(true);
    expect(await eventually(async () => (await since(before))['challenge/failed'] === 1 && (await since(before))['delivery/failed'] === 1, 5_000)).toBe(true);
    expect(await since(before)).toEqual({ 'challenge/confirmed': 1, 'challenge/retry': 2, 'challenge/failed': 1, 'delivery/failed': 1 });
  });

  it('counts a delivery sent back to the queue unsent while its receiver is busy, and delivers it later', async () => {
    const before = await attempts();
    const r = await aRequester(t);
    const slow = await receiver();
    let answer: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (answer = resolve));
    // The first event's answer waits until the test has seen the second one turned away.
    slow.on('/hook', async (req, nth) => {
      if (req.json?.event === 'task_completed' && slow.events('/hook').length === 1) await held;
      return echoChallenge(req, nth);
    });
    await completeTask(r, slow.url('/hook'));
    expect(await eventually(() => slow.events('/hook').length === 1, 10_000)).toBe(true);
    await completeTask(r, slow.url('/hook'));
    expect(await eventually(async () => (await since(before))['delivery/busy'] >= 1, 10_000)).toBe(true);
    answer();

    expect(await eventually(async () => (await since(before))['delivery/delivered'] === 2, 10_000)).toBe(true);
    const moved = await since(before);
    expect(moved['delivery/busy']).toBeGreaterThanOrEqual(1);
    expect(moved).toEqual({ 'challenge/confirmed': 1, 'delivery/delivered': 2, 'delivery/busy': moved['delivery/busy'] });
  }, 20_000);
});
