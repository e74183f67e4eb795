import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { within } from '../../common/within';
import { eventually } from '../../../test/eventually';
import { aRequester, completeTaskWithCallback, signUp } from '../../../test/factories';
import { startPrivateRedis, type PrivateRedis } from '../../../test/private-redis';
import { startTestApp } from '../../../test/test-app';
import { createTestDatabase, databaseUrl, dropTestDatabase } from '../../../test/test-database';
import { echoChallenge, WebhookReceiver } from '../../../test/webhook-receiver';
import { REDIS_CLOSE_GRACE_MS } from '../logged-bull-classes';

/**
 * A process with BullMQ workers (roles jobs and all) finishes its shutdown while Redis is away, instead
 * of waiting for Redis to come back (and being killed at SHUTDOWN_TIMEOUT_MS, exit code 1). Two causes,
 * each with its test: ioredis never ended a connection told to close while it waited to reconnect
 * (patches/ioredis+5.9.2.patch), and a worker waited for Redis to take the outcome of its last jobs
 * (LoggedWorker.close).
 */
describe('closing workers while Redis is away', () => {
  let redis: PrivateRedis;
  beforeEach(async () => {
    redis = await startPrivateRedis();
  });
  afterEach(async () => {
    await redis.stop();
  });

  it('a process with no job running closes at once', async () => {
    // Its own database, dropped after the timing: a DROP DATABASE on a busy CI host took seconds of the
    // close's budget (4.4 s once, against 2 s).
    const database = await createTestDatabase();
    try {
      const t = await startTestApp({ REDIS_URL: redis.url, REDIS_COMMAND_TIMEOUT_MS: '300' }, { role: 'all', database });
      await aRequester(t);
      await redis.stop();
      // Long enough for every worker connection to have failed a reconnect and be waiting for the next.
      await sleep(1500);
      const from = Date.now();
      expect(await within(t.close().then(() => 'closed'), 10_000, 'still closing')).toBe('closed');
      expect(Date.now() - from).toBeLessThan(REDIS_CLOSE_GRACE_MS);
    } finally {
      await dropTestDatabase(database);
    }
  }, 30_000);

  it('a delivery running when Redis goes away is recorded, then the process closes', async () => {
    const receiver = await new WebhookReceiver().start();
    const database = await createTestDatabase();
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    receiver.on('/slow', async (request, nth) => {
      if (request.json?.event === 'task_completed') await answered;
      return echoChallenge(request, nth);
    });
    const lines: string[] = [];
    const t = await startTestApp(
      { REDIS_URL: redis.url, REDIS_COMMAND_TIMEOUT_MS: '300', LOG_LEVEL: 'warn' },
      { role: 'all', database, logStream: { write: (line) => lines.push(line) } },
    );
    try {
      const r = await aRequester(t);
      await completeTaskWithCallback(t, r, await signUp(t), receiver.url('/slow'));
      expect(await eventually(() => receiver.events('/slow').length === 1)).toBe(true);
      await redis.stop();
      const closing = t.close().then(() => 'closed');
      // The close waits for the delivery, whose answer comes after it began.
      await sleep(300);
      answer();
      const from = Date.now();
      expect(await within(closing, 10_000, 'still closing')).toBe('closed');
      expect(Date.now() - from).toBeLessThan(REDIS_CLOSE_GRACE_MS + 2_000);
      expect(lines.join('')).toContain('worker webhook-delivery: Redis did not let it close');
      const pg = new Client({ connectionString: databaseUrl(database) });
      await pg.connect();
      try {
        const { rows } = await pg.query('SELECT state, attempt_count FROM webhook_events');
        expect(rows).toEqual([{ state: 'delivered', attempt_count: 1 }]);
      } finally {
        await pg.end();
      }
    } finally {
      await receiver.stop();
      await dropTestDatabase(database);
    }
  }, 30_000);
});
