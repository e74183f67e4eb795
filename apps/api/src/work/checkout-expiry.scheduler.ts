import type { CheckoutExpiryJob } from '@crowdbox/contracts';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { ProducerQueues } from '../queues/producer-queues';
import { REDIS } from '../redis/redis.module';

export function expiryJobId(checkoutId: string): string {
  return `expire-${checkoutId}`;
}

/**
 * Schedules the `checkout-expiry` job of a new lease, and takes it off the queue when the lease ends
 * earlier. Fire and forget: correctness never depends on the job (every query treats `expires_at <=
 * now()` as free, and the sweep catches what the queue missed), so a slow or absent Redis must not
 * delay or fail a checkout or a submit.
 */
@Injectable()
export class CheckoutExpiryScheduler {
  private readonly logger = new Logger(CheckoutExpiryScheduler.name);

  private readonly queue: Queue<CheckoutExpiryJob>;

  constructor(queues: ProducerQueues, @Inject(REDIS) private readonly redis: Redis) {
    this.queue = queues.checkoutExpiry;
  }

  schedule(checkoutId: string, expiresAt: Date): void {
    void this.enqueue(checkoutId, expiresAt).catch((error: Error) =>
      this.logger.warn(`expiry job for checkout ${checkoutId} not scheduled (the sweeper will expire it): ${error.message}`),
    );
  }

  /**
   * A submitted or released lease's job has nothing left to do, but would sit in Redis until its time:
   * about 1 KB per lease for up to a day (allowed_completion_time_seconds), i.e. gigabytes at a few
   * hundred leases per second (docs/decisions.md, "Expiry"). A job already running, or a removal lost,
   * finds the lease ended and is skipped, as before.
   */
  unschedule(checkoutId: string): void {
    if (this.redis.status !== 'ready') return;
    void this.queue.remove(expiryJobId(checkoutId)).catch((error: Error) =>
      this.logger.warn(`expiry job for checkout ${checkoutId} not removed (it will find the lease ended): ${error.message}`),
    );
  }

  private async enqueue(checkoutId: string, expiresAt: Date): Promise<void> {
    // While Redis is away BullMQ would hold the job in memory until it returns; the sweeper covers it.
    if (this.redis.status !== 'ready') throw new Error(`redis is ${this.redis.status}`);
    await this.queue.add(
      'expire',
      { checkoutId },
      // A second late, so the job never runs a hair before expires_at and finds nothing to do.
      { jobId: expiryJobId(checkoutId), delay: Math.max(0, expiresAt.getTime() - Date.now()) + 1000 },
    );
  }
}
