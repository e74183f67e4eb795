import { Injectable, Logger } from '@nestjs/common';
import { ProducerQueues } from '../queues/producer-queues';

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

  constructor(private readonly queues: ProducerQueues) {}

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
    if (this.queues.notReady()) return;
    void this.queues.checkoutExpiry.remove(expiryJobId(checkoutId)).catch((error: Error) =>
      this.logger.warn(`expiry job for checkout ${checkoutId} not removed (it will find the lease ended): ${error.message}`),
    );
  }

  private async enqueue(checkoutId: string, expiresAt: Date): Promise<void> {
    const notReady = this.queues.notReady();
    if (notReady) throw new Error(notReady);
    await this.queues.checkoutExpiry.add(
      'expire',
      { checkoutId },
      // A second late, so the job never runs a hair before expires_at and finds nothing to do.
      { jobId: expiryJobId(checkoutId), delay: Math.max(0, expiresAt.getTime() - Date.now()) + 1000 },
    );
  }
}
