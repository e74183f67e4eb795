import { aRequester, addTask, type Requester } from '../../../test/factories';
import { eventually } from '../../../test/eventually';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { SilentReceiver, WebhookReceiver } from '../../../test/webhook-receiver';

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

  /** Registers `url` for the requester's account through add_task (which schedules its challenge). */
  const register = async (r: Requester, url: string): Promise<void> => {
    const added = await addTask(t, r.liveKey, { project_uuid: r.projectUuid, substitutions: { object: 'car' }, callback_url: url });
    expect(added.status).toBe(201);
  };
  const stateOf = async (r: Requester): Promise<string[]> =>
    (await t.db.query(`SELECT state FROM webhook_endpoints WHERE account_id = $1 ORDER BY created_at`, [r.accountId])).map((e: { state: string }) => e.state);
  /** How long after its registration a good address of a new account is confirmed. */
  const confirmationMs = async (path: string): Promise<number> => {
    const r = await aRequester(t);
    const started = Date.now();
    await register(r, receiver.url(path));
    await eventually(async () => (await stateOf(r))[0] === 'confirmed', 10_000, 20);
    expect(await stateOf(r)).toEqual(['confirmed']);
    return Date.now() - started;
  };
  const silentReceivers = async (n: number): Promise<SilentReceiver[]> => Promise.all(Array.from({ length: n }, () => new SilentReceiver().start()));

  it('confirms a good address while a never-answering one’s challenge is in flight', async () => {
    const [silent] = await silentReceivers(1);
    try {
      const stuck = await aRequester(t);
      await register(stuck, silent.url('/never'));
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
      for (let i = 0; i < 5; i += 1) await register(await aRequester(t), silent.url(`/shared-${i}`));
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
    } finally {
      await Promise.all(silent.map((s) => s.stop()));
    }
  });
});
