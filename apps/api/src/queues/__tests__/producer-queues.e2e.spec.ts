import { QUEUES } from '@crowdbox/contracts';
import { getQueueToken } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { eventually } from '../../../test/eventually';
import { freePort } from '../../../test/free-port';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { APP_CONFIG } from '../../config/config.module';
import { REDIS } from '../../redis/redis.module';
import { WebhookJobs } from '../../webhooks/webhook-jobs';
import { CheckoutExpiryScheduler, expiryJobId } from '../../work/checkout-expiry.scheduler';
import { ProducerQueues } from '../producer-queues';

/** Calls `act` and counts the socket writes of the shared Redis client until the next turn after it. */
async function writesDuring(redis: Redis, act: () => void): Promise<number> {
  const stream = redis.stream as { write: (...args: unknown[]) => boolean };
  const write = stream.write;
  let writes = 0;
  stream.write = (...args) => {
    writes++;
    return write.apply(stream, args);
  };
  try {
    act();
    // Auto-pipelining writes in the turn after the commands were issued; the await chains inside
    // BullMQ issue them a few microtasks after `act` returns.
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
  } finally {
    stream.write = write;
  }
  return writes;
}

describe('ProducerQueues', () => {
  let t: TestApp;
  let redis: Redis;
  let scheduler: CheckoutExpiryScheduler;
  /** The registered queue, on a connection of its own: reading through it leaves the counted client alone. */
  let observer: Queue;
  beforeAll(async () => {
    // A command timeout far above the default 500 ms: what is counted here is writes, and on a busy CI
    // host an add past 500 ms was left to the sweep (as it should be), so its job never came.
    t = await startTestApp({ REDIS_COMMAND_TIMEOUT_MS: '5000' });
    redis = t.app.get(REDIS);
    scheduler = t.app.get(CheckoutExpiryScheduler);
    observer = t.app.get(getQueueToken(QUEUES.checkoutExpiry));
    await observer.waitUntilReady();
  });
  afterAll(async () => {
    await t.close();
  });

  const queued = async (ids: string[]) => (await Promise.all(ids.map((id) => observer.getJob(expiryJobId(id))))).filter(Boolean).length;

  it('sends the expiry jobs that many checkouts add in one turn of the event loop as one write', async () => {
    const ids = Array.from({ length: 20 }, () => randomUUID());
    const writes = await writesDuring(redis, () => ids.forEach((id) => scheduler.schedule(id, new Date(Date.now() + 60_000))));
    expect(writes).toBeGreaterThanOrEqual(1);
    expect(writes).toBeLessThanOrEqual(2);
    expect(await eventually(async () => (await queued(ids)) === ids.length, 10_000)).toBe(true);

    const removals = await writesDuring(redis, () => ids.forEach((id) => scheduler.unschedule(id)));
    expect(removals).toBeGreaterThanOrEqual(1);
    expect(removals).toBeLessThanOrEqual(2);
    expect(await eventually(async () => (await queued(ids)) === 0, 10_000)).toBe(true);
  });

  it('are the queues the workers read: same names, same prefix', () => {
    const producers = t.app.get(ProducerQueues);
    expect(producers.checkoutExpiry.qualifiedName).toBe(observer.qualifiedName);
    const delivery: Queue = t.app.get(getQueueToken(QUEUES.webhookDelivery));
    expect(producers.webhookDelivery.qualifiedName).toBe(delivery.qualifiedName);
    const challenge: Queue = t.app.get(getQueueToken(QUEUES.webhookChallenge));
    expect(producers.webhookChallenge.qualifiedName).toBe(challenge.qualifiedName);
  });

  it('leave the shared client open when they close: RedisModule owns it', async () => {
    const producers = new ProducerQueues(redis, t.app.get(APP_CONFIG));
    await producers.checkoutExpiry.waitUntilReady();
    await producers.onApplicationShutdown();
    expect(redis.status).toBe('ready');
    expect(await redis.ping()).toBe('PONG');
  });

  it('keep quiet about a lost connection, which /health reports, and log anything else', () => {
    const producers = t.app.get(ProducerQueues);
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      producers.webhookDelivery.emit('error', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { syscall: 'connect' }));
      expect(warn).not.toHaveBeenCalled();
      producers.webhookDelivery.emit('error', new Error('OOM command not allowed when used memory > maxmemory'));
      expect(warn).toHaveBeenCalledWith('queue webhook-delivery: OOM command not allowed when used memory > maxmemory');
    } finally {
      warn.mockRestore();
    }
  });

  it('fold what an outage fails for every lease and every event into one line a minute per kind and reason', async () => {
    const away = await startTestApp({ REDIS_URL: `redis://127.0.0.1:${await freePort()}` }, { role: 'http' });
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      const expiry = away.app.get(CheckoutExpiryScheduler);
      const jobs = away.app.get(WebhookJobs);
      for (let i = 0; i < 50; i++) {
        expiry.schedule(randomUUID(), new Date(Date.now() + 60_000));
        expiry.unschedule(randomUUID());
        jobs.enqueueDelivery(randomUUID());
        jobs.scheduleChallenge(randomUUID());
      }
      await new Promise((resolve) => setImmediate(resolve));
      const lines = warn.mock.calls.map(([message]) => String(message));
      expect(lines.filter((line) => line.startsWith('expiry jobs not scheduled'))).toHaveLength(1);
      expect(lines.filter((line) => line.startsWith('deliveries left to the outbox relay'))).toHaveLength(1);
      expect(lines.filter((line) => line.startsWith('challenges left to the outbox relay'))).toHaveLength(1);
      // unschedule skips Redis while it is away; nothing per lease either way.
      expect(lines.filter((line) => /[0-9a-f]{8}-[0-9a-f]{4}-/.test(line))).toEqual([]);
    } finally {
      warn.mockRestore();
      await away.close();
    }
  });
});
