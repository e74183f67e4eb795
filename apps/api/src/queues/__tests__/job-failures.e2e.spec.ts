import { randomUUID } from 'node:crypto';
import { eventually } from '../../../test/eventually';
import { aRequester, completeTaskWithCallback, signUp } from '../../../test/factories';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { echoChallenge, WebhookReceiver } from '../../../test/webhook-receiver';
import { ProducerQueues } from '../producer-queues';

const TOKEN = 'metrics-token-for-tests';

interface LogLine {
  level: number;
  context?: string;
  msg: string;
}

/**
 * Every job is removed when it fails (FINISHED_JOBS), so a processor that throws must leave a line in
 * the log and a count in crowdbox_queue_job_failures_total (docs/running.md, "Metrics"); before, it left
 * nothing at all. A retry or a deferral (the webhook processors' DelayedError) is not a failure.
 */
describe('BullMQ job failures', () => {
  let t: TestApp;
  const lines: string[] = [];
  const receivers: WebhookReceiver[] = [];
  beforeAll(async () => {
    t = await startTestApp(
      {
        LOG_LEVEL: 'warn',
        METRICS_TOKEN: TOKEN,
        WEBHOOK_RETRY_SCHEDULE_SECONDS: '0.2,0.3',
        WEBHOOK_RELAY_INTERVAL_MS: '100',
        WEBHOOK_RELAY_GRACE_MS: '300',
      },
      { logStream: { write: (line) => lines.push(line) } },
    );
  });
  afterAll(async () => {
    await Promise.all(receivers.map((receiver) => receiver.stop()));
    await t.close();
  });

  /** Every sample of `metric` with one label, as label value -> count. */
  const samples = async (metric: string): Promise<Record<string, number>> => {
    const res = await t.request({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    const counts: Record<string, number> = {};
    for (const [, labels, value] of res.text.matchAll(new RegExp(`^${metric}\\{(.*)\\} (\\d+)$`, 'gm'))) counts[labels] = Number(value);
    return counts;
  };
  const failures = () => samples('crowdbox_queue_job_failures_total');
  const failureLines = () =>
    lines.map((line) => JSON.parse(line) as LogLine).filter((line) => line.context === 'BullMQ' && / failed \(attempts made: \d+\): /.test(line.msg));

  it('starts every queue at 0', async () => {
    expect(await failures()).toEqual({ 'queue="checkout-expiry"': 0, 'queue="webhook-delivery"': 0, 'queue="webhook-challenge"': 0 });
  });

  it('logs and counts a job whose processor throws (an expiry job whose checkout id is no UUID)', async () => {
    const checkoutId = `not-a-uuid-${randomUUID()}`;
    const job = await t.app.get(ProducerQueues).checkoutExpiry.add('expire', { checkoutId });
    expect(await eventually(async () => (await failures())['queue="checkout-expiry"'] === 1, 10_000)).toBe(true);
    expect(await failures()).toEqual({ 'queue="checkout-expiry"': 1, 'queue="webhook-delivery"': 0, 'queue="webhook-challenge"': 0 });
    expect(failureLines()).toEqual([
      expect.objectContaining({
        level: 40,
        msg: `worker checkout-expiry: job expire ${job.id} failed (attempts made: 1): invalid input syntax for type uuid: "${checkoutId}"`,
      }),
    ]);
    // Gone from Redis all the same: the log line and the counter are all that is left of it.
    expect(await job.getState()).toBe('unknown');
  });

  it('neither logs nor counts the retries that put a delivery or a challenge back on the queue (DelayedError)', async () => {
    const attempts = () => samples('crowdbox_webhook_attempts_total');
    const worker = await signUp(t);
    const r = await aRequester(t);
    const refusingEvents = await new WebhookReceiver().start();
    receivers.push(refusingEvents);
    refusingEvents.on('/hook', (req, nth) => (req.json?.event === 'task_completed' ? { status: 500 } : echoChallenge(req, nth)));
    const refusingAll = await new WebhookReceiver().start();
    receivers.push(refusingAll);
    refusingAll.on('/hook', () => ({ status: 500 }));
    const before = failureLines().length;

    await completeTaskWithCallback(t, r, worker, refusingEvents.url('/hook'));
    await completeTaskWithCallback(t, r, worker, refusingAll.url('/hook'));
    // Each tried three times (the first try and the schedule's two retries, each retry a DelayedError), then given up.
    const givenUp = async () => {
      const counts = await attempts();
      return counts['kind="delivery",outcome="failed"'] === 1 && counts['kind="challenge",outcome="failed"'] === 1;
    };
    expect(await eventually(givenUp, 10_000)).toBe(true);
    const counts = await attempts();
    expect([counts['kind="delivery",outcome="retry"'], counts['kind="challenge",outcome="retry"']]).toEqual([2, 2]);

    expect(await failures()).toEqual({ 'queue="checkout-expiry"': 1, 'queue="webhook-delivery"': 0, 'queue="webhook-challenge"': 0 });
    expect(failureLines()).toHaveLength(before);
  });
});
