import type { WebhookChallengeJob, WebhookDeliveryJob } from '@crowdbox/contracts';
import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { setTimeout as sleep } from 'node:timers/promises';
import { RepeatedWarnings } from '../common/repeated-warnings';
import { ProducerQueues } from '../queues/producer-queues';

/** How long and how often sendAgain watches an active job (an attempt lasts at most WEBHOOK_TIMEOUT_MS plus its wait for a receiver slot). */
const ACTIVE_WATCH_MS = 60_000;
const ACTIVE_WATCH_POLL_MS = 50;

export const challengeJobId = (endpointId: string) => `challenge-${endpointId}`;

/**
 * Jobs in flight at once when many are added together (the relay's pages, a confirmation's release, a
 * bulk redeliver). Each command on the shared client times out REDIS_COMMAND_TIMEOUT_MS (500 ms) after
 * it is queued, and Redis runs the adds' scripts one after another: a page of 1,000 queued at once on a
 * busy host left its last adds past the timeout and failed the relay's whole pass (seen in tests beside
 * other suites). 100 at a time keeps each wait a tenth as long, for one round trip per 100.
 */
export const ADD_CHUNK = 100;

/** Runs `add` for every id, ADD_CHUNK at a time; rejects with the first failure, after its chunk settles. */
export async function addInChunks(ids: readonly string[], add: (id: string) => Promise<void>): Promise<void> {
  for (let i = 0; i < ids.length; i += ADD_CHUNK) await Promise.all(ids.slice(i, i + ADD_CHUNK).map(add));
}

/**
 * Puts webhook work on BullMQ. Jobs are named by what they are for (the event id, the endpoint id), so
 * adding one twice is a no-op while it is queued. Nothing here may fail a request: if Redis is away,
 * the outbox relay enqueues the work from the database once it is back.
 */
@Injectable()
export class WebhookJobs {
  private readonly logger = new Logger(WebhookJobs.name);
  /** A Redis outage fails every completion's enqueue: one line a minute per kind and reason, not one per event. */
  private readonly warnings = {
    deliveries: new RepeatedWarnings(this.logger),
    challenges: new RepeatedWarnings(this.logger),
    redeliveries: new RepeatedWarnings(this.logger),
  };

  readonly deliveries: Queue<WebhookDeliveryJob>;
  readonly challenges: Queue<WebhookChallengeJob>;

  constructor(private readonly queues: ProducerQueues) {
    this.deliveries = queues.webhookDelivery;
    this.challenges = queues.webhookChallenge;
  }

  enqueueDelivery(eventId: string): void {
    this.fireAndForget('deliveries', () => this.addDelivery(eventId));
  }

  /** Many events' deliveries (a confirmation's first page), ADD_CHUNK at a time; what fails is left to the relay. */
  enqueueDeliveries(eventIds: readonly string[]): void {
    this.fireAndForget('deliveries', () => addInChunks(eventIds, (id) => this.addDelivery(id)));
  }

  scheduleChallenge(endpointId: string): void {
    this.fireAndForget('challenges', () => this.addChallenge(endpointId));
  }

  /** Awaitable forms, for the relay (which wants to know whether it worked). */
  async addDelivery(eventId: string, delayMs = 0): Promise<void> {
    await this.deliveries.add('deliver', { eventId }, { jobId: eventId, delay: delayMs, removeOnComplete: true, removeOnFail: true });
  }

  /**
   * Queues events redelivered from the console (their rows already reset). Adding is a no-op for an
   * event whose job is still active. During its attempt that is right: the attempt's record sees the
   * redeliver and the job sends again itself (webhook-delivery.processor.ts). In the milliseconds after
   * the record committed, though, the job ends without sending, and the event would wait for the relay
   * (WEBHOOK_RELAY_GRACE_MS, 30 s by default). So each such job is watched until it is gone, and the
   * event queued again then: a no-op job if the attempt sent it after all. Nothing here fails the request.
   */
  async sendAgain(eventIds: string[]): Promise<void> {
    await addInChunks(eventIds, (id) => this.addDelivery(id).catch(() => undefined));
    const wanted = new Set(eventIds);
    const active = await this.deliveries.getActive().catch(() => []);
    for (const job of active) if (job.id !== undefined && wanted.has(job.id)) void this.addOnceInactive(job.id);
  }

  /** Adds the event's delivery once its job is no longer active (polled; gives up after ACTIVE_WATCH_MS, leaving it to the relay). */
  private async addOnceInactive(eventId: string): Promise<void> {
    const until = Date.now() + ACTIVE_WATCH_MS;
    try {
      while (Date.now() < until) {
        const state = await this.deliveries.getJobState(eventId);
        if (state === 'unknown') return await this.addDelivery(eventId);
        if (state !== 'active') return;
        // Unreferenced: a watch in progress never keeps a closing process alive.
        await sleep(ACTIVE_WATCH_POLL_MS, undefined, { ref: false });
      }
    } catch (error) {
      this.warnings.redeliveries.report('redeliveries left to the outbox relay', error as Error);
    }
  }

  async addChallenge(endpointId: string, delayMs = 0): Promise<void> {
    await this.challenges.add(
      'challenge',
      { endpointId },
      { jobId: challengeJobId(endpointId), delay: delayMs, removeOnComplete: true, removeOnFail: true },
    );
  }

  private fireAndForget(what: 'deliveries' | 'challenges', add: () => Promise<void>): void {
    const notReady = this.queues.notReady();
    if (notReady) {
      this.warnings[what].report(`${what} left to the outbox relay`, new Error(notReady));
      return;
    }
    add().catch((error: Error) => this.warnings[what].report(`${what} left to the outbox relay`, error));
  }
}
