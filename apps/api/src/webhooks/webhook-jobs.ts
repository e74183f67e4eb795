import type { WebhookChallengeJob, WebhookDeliveryJob } from '@crowdbox/contracts';
import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { ProducerQueues } from '../queues/producer-queues';

export const challengeJobId = (endpointId: string) => `challenge-${endpointId}`;

/**
 * Puts webhook work on BullMQ. Jobs are named by what they are for (the event id, the endpoint id), so
 * adding one twice is a no-op while it is queued. Nothing here may fail a request: if Redis is away,
 * the outbox relay enqueues the work from the database once it is back.
 */
@Injectable()
export class WebhookJobs {
  private readonly logger = new Logger(WebhookJobs.name);

  readonly deliveries: Queue<WebhookDeliveryJob>;
  readonly challenges: Queue<WebhookChallengeJob>;

  constructor(private readonly queues: ProducerQueues) {
    this.deliveries = queues.webhookDelivery;
    this.challenges = queues.webhookChallenge;
  }

  enqueueDelivery(eventId: string): void {
    this.fireAndForget(`delivery of event ${eventId}`, () => this.addDelivery(eventId));
  }

  scheduleChallenge(endpointId: string): void {
    this.fireAndForget(`challenge of endpoint ${endpointId}`, () => this.addChallenge(endpointId));
  }

  /** Awaitable forms, for the relay (which wants to know whether it worked). */
  async addDelivery(eventId: string, delayMs = 0): Promise<void> {
    await this.deliveries.add('deliver', { eventId }, { jobId: eventId, delay: delayMs, removeOnComplete: true, removeOnFail: true });
  }

  async addChallenge(endpointId: string, delayMs = 0): Promise<void> {
    await this.challenges.add(
      'challenge',
      { endpointId },
      { jobId: challengeJobId(endpointId), delay: delayMs, removeOnComplete: true, removeOnFail: true },
    );
  }

  private fireAndForget(what: string, add: () => Promise<void>): void {
    const notReady = this.queues.notReady();
    if (notReady) {
      this.logger.warn(`${what} left to the outbox relay: ${notReady}`);
      return;
    }
    add().catch((error: Error) => this.logger.warn(`${what} left to the outbox relay: ${error.message}`));
  }
}
