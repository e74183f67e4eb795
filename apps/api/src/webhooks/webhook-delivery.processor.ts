import { QUEUES, type WebhookDeliveryJob } from '@crowdbox/contracts';
import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DelayedError, type Job } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { runPrepared, type PreparedStatement } from '../database/prepared-statement';
import { WebhookMetrics } from '../metrics/webhook-metrics';
import { ACCOUNT_DELETED } from './deleted-account';
import { DeliveryBatches } from './delivery-batches';
import { taskCompletedPayload, type TaskCompletedRow } from './event-payload';
import { deferralMs } from './receiver-slots';
import { nextDelayMs, verdictOf } from './retry-policy';
import { signatureHeaders } from './signing';
import { WebhookSender } from './webhook-sender';

export type DeliveryResult = 'delivered' | 'retry' | 'failed' | 'waiting' | 'skipped';

const PARK_EVENT: PreparedStatement = {
  name: 'webhook_delivery_park_event',
  text: `
    WITH unconfirmed AS (
      SELECT ep.id FROM webhook_endpoints ep JOIN webhook_events e ON e.endpoint_id = ep.id
       WHERE e.id = $1 AND ep.state <> 'confirmed'
         FOR SHARE OF ep
    )
    UPDATE webhook_events e SET next_attempt_at = NULL
      FROM unconfirmed WHERE e.id = $1 AND e.state = 'pending' AND e.endpoint_id = unconfirmed.id
    RETURNING e.id`,
};

/**
 * Delivers one outbox event (roles jobs and all). The database row is the record: every attempt is
 * logged, and a retry is the same BullMQ job moved to its next time (jobId stays the event id). Events
 * for an address that is not confirmed wait (next_attempt_at empty) until the challenge succeeds. An
 * event for a receiver that has been busy past WEBHOOK_RECEIVER_WAIT_MS goes back to the queue unsent
 * (ReceiverSlots), so one slow receiver cannot hold every delivery slot. An event of a deleted account
 * ends failed unsent (deleted-account.ts).
 */
@Processor(QUEUES.webhookDelivery)
export class WebhookDeliveryProcessor extends WorkerHost implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly batches: DeliveryBatches;
  private readonly logger = new Logger(WebhookDeliveryProcessor.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly sender: WebhookSender,
    private readonly metrics: WebhookMetrics,
  ) {
    super();
    this.batches = new DeliveryBatches(db);
  }

  onApplicationBootstrap(): void {
    this.worker.concurrency = this.config.WEBHOOK_CONCURRENCY;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.sender.close();
  }

  async process(job: Job<WebhookDeliveryJob>, token?: string): Promise<DeliveryResult> {
    return this.deliver(job, token, true);
  }

  private async deliver(job: Job<WebhookDeliveryJob>, token: string | undefined, mayPark: boolean): Promise<DeliveryResult> {
    const event = await this.batches.readEvent(job.data.eventId);
    if (!event || event.event_state !== 'pending') return 'skipped';
    const eventId = event.event_id;
    if (event.account_deleted) {
      // Ended, not retried: the relay re-enqueues pending events only, so this one is not sent again.
      this.logger.warn(`webhook event ${eventId} ended unsent: ${ACCOUNT_DELETED}`);
      return this.end(eventId, 'failed', ACCOUNT_DELETED);
    }
    if (!event.url) return this.end(eventId, 'failed', 'the callback address no longer exists');
    if (event.endpoint_state !== 'confirmed') {
      // Parked until the challenge releases it. If the address was confirmed since the read, that release
      // may have come and gone while this job was active (its enqueue a no-op under this job's id): deliver now.
      if (mayPark && !(await this.park(eventId))) return this.deliver(job, token, false);
      return 'waiting';
    }

    let body = event.body;
    if (body === null) {
      const built = event.task ? taskCompletedPayload({ id: eventId, created_at: new Date(event.event_created_at) }, reviveDates(event.task)) : undefined;
      if (!built) return this.end(eventId, 'failed', 'the task is gone or not complete');
      body = JSON.stringify(built);
    }
    const outcome = await this.sender.postUnlessBusy(event.url, body, signatureHeaders(event.secrets, eventId, body), this.config.WEBHOOK_RECEIVER_WAIT_MS);
    if ('busyForMs' in outcome) {
      // Nothing was sent, so no attempt is logged. The job waits in Redis about as long as the receiver
      // has been stuck, so a slow receiver's backlog comes back as a trickle, not a busy loop; the row
      // says when, for the console and the relay. A failed write leaves the old time: the relay re-adds
      // the job then, a no-op while it waits, so it is only logged.
      this.metrics.delivery.busy.inc();
      const delayMs = deferralMs(outcome.busyForMs);
      await job.moveToDelayed(Date.now() + delayMs, token);
      await this.batches
        .recordDeferral({ eventId, delayMs, redeliveries: event.redeliveries, attemptCount: event.attempt_count })
        .catch((error: Error) => this.logger.warn(`webhook event ${eventId}: its next attempt time was not recorded: ${error.message}`));
      throw new DelayedError();
    }

    const attempts = event.attempt_count + 1;
    const verdict = verdictOf(outcome);
    const delay =
      verdict === 'retry'
        ? nextDelayMs(attempts, { delaysSeconds: this.config.WEBHOOK_RETRY_SCHEDULE_SECONDS, retryAfterMaxSeconds: this.config.WEBHOOK_RETRY_AFTER_MAX_SECONDS }, outcome.retryAfterMs)
        : undefined;
    const state = verdict === 'delivered' ? 'delivered' : delay !== undefined ? 'pending' : 'failed';
    this.metrics.delivery[state === 'pending' ? 'retry' : state].inc();
    const error = outcome.error === undefined ? (verdict === 'delivered' ? null : `HTTP ${outcome.status}`) : withoutNul(outcome.error);
    const record = () =>
      this.batches.recordAttempt({
        attemptId: randomUUID(),
        eventId,
        statusCode: outcome.status ?? null,
        durationMs: outcome.durationMs,
        error,
        excerpt: excerpt(outcome.excerpt),
        attemptCount: attempts,
        state,
        delayMs: delay ?? 0,
        body,
        redeliveries: event.redeliveries,
      });
    if (state === 'pending') {
      // Delayed before the record: a redeliver that comes after the record then finds this job delayed,
      // not active, and can replace it. One that came during the attempt leaves the record unapplied,
      // and this job runs again now instead of at the old schedule's next step.
      await job.moveToDelayed(Date.now() + (delay as number), token);
      if (!(await record())) await job.promote().catch(() => undefined);
      throw new DelayedError();
    }
    // Redelivered during this attempt: the redeliver's job was a no-op under this job's id, so send again here.
    if (!(await record())) return this.deliver(job, token, true);
    return state === 'delivered' ? 'delivered' : 'failed';
  }

  /**
   * Parks a pending event until its address is confirmed (next_attempt_at empty: the relay leaves it
   * alone, the challenge releases it). Only while the address is still unconfirmed, checked under a
   * share lock on the endpoint row: a challenge confirming it concurrently either waits for this
   * statement (and then releases the event) or has committed first (and this parks nothing). Parking
   * after a confirmation the job did not see would leave the event waiting for a release that already
   * happened. Returns whether it parked the event.
   */
  private async park(eventId: string): Promise<boolean> {
    const rows = await runPrepared(this.db, PARK_EVENT, [eventId]);
    return rows.length > 0;
  }

  private async end(eventId: string, state: 'failed', reason: string): Promise<DeliveryResult> {
    this.metrics.delivery[state].inc();
    await this.db.query(`UPDATE webhook_events SET state = $2, last_error = $3, next_attempt_at = NULL WHERE id = $1`, [eventId, state, reason]);
    return state;
  }
}

/** row_to_json turns timestamps into strings; the payload builder wants Dates. */
function reviveDates(row: TaskCompletedRow): TaskCompletedRow {
  return {
    ...row,
    completed_at: row.completed_at ? new Date(row.completed_at) : null,
    checked_out_at: row.checked_out_at ? new Date(row.checked_out_at) : null,
  };
}

/**
 * The reply's first KiB as text PostgreSQL accepts. A NUL byte is the one character a text column
 * refuses, and a receiver may answer anything (a GIF, protobuf, gzip): left in, the attempt could not
 * be recorded, the event stayed pending with its old schedule, and the relay sent it again for ever.
 */
function excerpt(text: string): string | null {
  return text ? withoutNul(text) : null;
}

const withoutNul = (text: string) => text.replaceAll('\u0000', '\uFFFD');
