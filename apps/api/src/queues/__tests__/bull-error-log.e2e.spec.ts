import { QUEUES } from '@crowdbox/contracts';
import { getQueueToken } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { freePort } from '../../../test/free-port';
import { startTestApp } from '../../../test/test-app';
import { WebhookChallengeProcessor } from '../../webhooks/webhook-challenge.processor';
import { WebhookDeliveryProcessor } from '../../webhooks/webhook-delivery.processor';
import { CheckoutExpiryProcessor } from '../../work/checkout-expiry.processor';
import { RepeatedWarnings } from '../../common/repeated-warnings';

const spyOnOutput = () => ({
  consoleError: jest.spyOn(console, 'error').mockImplementation(() => undefined),
  warn: jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined),
});

describe('RepeatedWarnings', () => {
  it('logs a message once a minute at most, then says how many were left out', () => {
    let now = 0;
    const warn = jest.fn();
    const log = new RepeatedWarnings({ warn }, 60_000, () => now);
    const refused = new Error('connect ECONNREFUSED 127.0.0.1:6379');
    for (let i = 0; i < 30; i++) log.report('worker checkout-expiry', refused);
    log.report('queue webhook-delivery', refused);
    log.report('queue webhook-delivery', new Error('OOM command not allowed'));
    expect(warn.mock.calls).toEqual([['worker checkout-expiry: connect ECONNREFUSED 127.0.0.1:6379'], ['queue webhook-delivery: OOM command not allowed']]);

    now = 60_000;
    log.report('worker checkout-expiry', refused);
    expect(warn).toHaveBeenLastCalledWith('worker checkout-expiry: connect ECONNREFUSED 127.0.0.1:6379 (and 30 more like it in the last 60 s)');
    now = 120_001;
    log.report('worker checkout-expiry', refused);
    expect(warn).toHaveBeenLastCalledWith('worker checkout-expiry: connect ECONNREFUSED 127.0.0.1:6379');
    expect(warn).toHaveBeenCalledTimes(4);
  });
});

/**
 * The queues and workers that @nestjs/bullmq builds log their 'error' events through Nest's logger (the
 * JSON log); with no listener, BullMQ printed each with its stack through console.error.
 */
describe('BullMQ errors in the log', () => {
  afterEach(() => jest.restoreAllMocks());

  it('every registered queue and every worker logs an error event instead of printing it', async () => {
    const t = await startTestApp({}, { role: 'all' });
    try {
      /** Each queue and worker, as the EventEmitter it is (their typed emit() signatures do not unite). */
      const emitters: Array<{ source: string; emitter: { emit(event: 'error', error: Error): boolean } }> = [
        ...Object.values(QUEUES).map((name) => ({ source: `queue ${name}`, emitter: t.app.get<Queue>(getQueueToken(name)) })),
        ...[CheckoutExpiryProcessor, WebhookDeliveryProcessor, WebhookChallengeProcessor].map((processor) => {
          const worker = t.app.get(processor).worker;
          return { source: `worker ${worker.name}`, emitter: worker };
        }),
      ];
      expect(emitters).toHaveLength(6);
      const { consoleError, warn } = spyOnOutput();
      for (const { source, emitter } of emitters) {
        const message = `lost a lock ${randomUUID()}`;
        emitter.emit('error', new Error(message));
        expect(warn).toHaveBeenLastCalledWith(`${source}: ${message}`);
      }
      expect(consoleError).not.toHaveBeenCalled();
    } finally {
      jest.restoreAllMocks();
      await t.close();
    }
  });

  it('a Redis that is not there: one line in the log for the whole outage so far, nothing on console.error', async () => {
    const { consoleError, warn } = spyOnOutput();
    const t = await startTestApp({ REDIS_URL: `redis://127.0.0.1:${await freePort()}` }, { role: 'http' });
    try {
      // Each of the three registered queues' connections fails and retries meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      const refused = warn.mock.calls.filter(([message]) => /^queue [\w-]+: connect ECONNREFUSED/.test(String(message)));
      expect(refused).toHaveLength(1);
      expect(consoleError).not.toHaveBeenCalled();
    } finally {
      jest.restoreAllMocks();
      await t.close();
    }
  });
});
