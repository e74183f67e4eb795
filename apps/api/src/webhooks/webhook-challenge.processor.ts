import { QUEUES, type WebhookChallengeJob } from '@crowdbox/contracts';
import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DelayedError, type Job } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { ASYNC_COMMIT } from '../database/async-commit';
import { WebhookMetrics } from '../metrics/webhook-metrics';
import { ACCOUNT_DELETED, accountDeletedSql } from './deleted-account';
import { releaseParkedPage } from './parked-events';
import { deferralMs, ReceiverSlots } from './receiver-slots';
import { nextDelayMs } from './retry-policy';
import { signatureHeaders, signingSecretsSql } from './signing';
import { WebhookJobs } from './webhook-jobs';
import { WebhookSender, type SendOutcome } from './webhook-sender';

/**
 * A deferred challenge's next time ($2 ms from now), unless its address moved on since the read ($3 its
 * attempt count then: the job, back from the queue before this write ran, may already have made its
 * attempt, whose time must stand); see defer(). Asynchronous commit: lost in a crash, the old time only
 * makes the relay re-add a queued job.
 */
const DEFER_CHALLENGE = `
  UPDATE webhook_endpoints SET next_attempt_at = now() + make_interval(secs => $2::double precision / 1000)
    FROM ${ASYNC_COMMIT}
   WHERE id = $1 AND state = 'pending' AND attempt_count = $3`;

interface EndpointRow {
  id: string;
  account_id: string;
  url: string;
  state: string;
  challenge_token: string;
  attempt_count: number;
  secrets: string[];
  account_deleted: boolean;
}

/**
 * Confirms a callback address before any data goes to it (API.md §2): POST
 * `{"event":"challenge","data":{"token"}}`, which must be answered 2xx with `{"token"}`. A failure is
 * retried on the delivery schedule, then the address is `failed` until a later add_task re-arms it.
 * On success the events that waited for the address are released to the delivery queue, a page at a
 * time (parked-events.ts).
 *
 * Challenges run side by side (WEBHOOK_CHALLENGE_CONCURRENCY), and none holds a slot for a busy
 * receiver or a busy account: a challenge whose receiver has been busy past WEBHOOK_RECEIVER_WAIT_MS, or
 * whose account already has WEBHOOK_CHALLENGE_ACCOUNT_CONCURRENCY challenges in flight here, goes back
 * to the queue unsent, with no attempt counted. So addresses that never answer, on one receiver or on
 * many of one account, cannot hold up other accounts' confirmations. A deleted account's address is
 * not challenged (deleted-account.ts).
 */
@Processor(QUEUES.webhookChallenge)
export class WebhookChallengeProcessor extends WorkerHost implements OnApplicationBootstrap {
  /** This process's challenges in flight, by account. */
  private readonly accounts: ReceiverSlots;
  private readonly logger = new Logger(WebhookChallengeProcessor.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly sender: WebhookSender,
    private readonly jobs: WebhookJobs,
    private readonly metrics: WebhookMetrics,
  ) {
    super();
    this.accounts = new ReceiverSlots(config.WEBHOOK_CHALLENGE_ACCOUNT_CONCURRENCY);
  }

  onApplicationBootstrap(): void {
    this.worker.concurrency = this.config.WEBHOOK_CHALLENGE_CONCURRENCY;
  }

  async process(job: Job<WebhookChallengeJob>, token?: string): Promise<'confirmed' | 'retry' | 'failed' | 'skipped'> {
    const rows: EndpointRow[] = await this.db.query(
      `SELECT ep.id, ep.account_id, ep.url, ep.state, ep.challenge_token, ep.attempt_count, ${signingSecretsSql('a')} AS secrets,
              ${accountDeletedSql('ep.account_id')} AS account_deleted
         FROM webhook_endpoints ep JOIN accounts a ON a.id = ep.account_id WHERE ep.id = $1`,
      [job.data.endpointId],
    );
    const endpoint = rows[0];
    if (!endpoint || endpoint.state !== 'pending') return 'skipped';
    if (endpoint.account_deleted) return this.fail(endpoint.id, ACCOUNT_DELETED);

    const turn = await this.accounts.take(endpoint.account_id, 0);
    if (!('release' in turn)) return this.defer(job, token, turn.busyForMs, endpoint.attempt_count);
    const body = JSON.stringify({ event: 'challenge', data: { token: endpoint.challenge_token } });
    const headers = signatureHeaders(endpoint.secrets, randomUUID(), body);
    const outcome = await this.sender.postUnlessBusy(endpoint.url, body, headers, this.config.WEBHOOK_RECEIVER_WAIT_MS).finally(turn.release);
    if ('busyForMs' in outcome) return this.defer(job, token, outcome.busyForMs, endpoint.attempt_count);
    const attempts = endpoint.attempt_count + 1;
    const failure = challengeFailure(outcome, endpoint.challenge_token);

    if (!failure) {
      this.metrics.challenge.confirmed.inc();
      // Confirmed and owed the release of its parked events (next_attempt_at set) in one statement: if
      // this process dies before the release ends, the relay carries it on (parked-events.ts).
      const [, confirmed]: [unknown, number] = await this.db.query(
        `UPDATE webhook_endpoints SET state = 'confirmed', confirmed_at = now(), attempt_count = $2, next_attempt_at = now(),
                last_error = NULL, updated_at = now()
          WHERE id = $1 AND state = 'pending'`,
        [endpoint.id, attempts],
      );
      if (confirmed === 0) return 'skipped';
      // The first page goes to the delivery queue now; the relay releases the rest a page at a time,
      // within its pass's jobs, so days of waiting events neither make one long transaction nor land in
      // Redis at once.
      this.jobs.enqueueDeliveries(await releaseParkedPage(this.db, endpoint.id));
      return 'confirmed';
    }

    const delay = nextDelayMs(
      attempts,
      { delaysSeconds: this.config.WEBHOOK_RETRY_SCHEDULE_SECONDS, retryAfterMaxSeconds: this.config.WEBHOOK_RETRY_AFTER_MAX_SECONDS },
      outcome.retryAfterMs,
    );
    this.metrics.challenge[delay === undefined ? 'failed' : 'retry'].inc();
    await this.db.query(
      `UPDATE webhook_endpoints
          SET attempt_count = $2, last_error = $3, updated_at = now(),
              state = CASE WHEN $4::double precision IS NULL THEN 'failed' ELSE state END,
              next_attempt_at = CASE WHEN $4::double precision IS NULL THEN NULL ELSE now() + make_interval(secs => $4::double precision / 1000) END
        WHERE id = $1 AND state = 'pending'`,
      [endpoint.id, attempts, failure, delay ?? null],
    );
    if (delay === undefined) return 'failed';
    await job.moveToDelayed(Date.now() + delay, token);
    throw new DelayedError();
  }

  /**
   * A deleted account's address is not challenged: it ends `failed` (the relay re-enqueues pending ones
   * only), and the events parked for it stay parked until the log's retention deletes them.
   */
  private async fail(endpointId: string, reason: string): Promise<'failed'> {
    this.logger.warn(`webhook address ${endpointId} not challenged: ${reason}`);
    this.metrics.challenge.failed.inc();
    await this.db.query(
      `UPDATE webhook_endpoints SET state = 'failed', last_error = $2, next_attempt_at = NULL, updated_at = now() WHERE id = $1 AND state = 'pending'`,
      [endpointId, reason],
    );
    return 'failed';
  }

  /**
   * Back to the queue unsent, for about as long as the receiver or the account has been busy (nothing
   * was sent, so the address's schedule is not spent, nor its attempts counted). The address's
   * next_attempt_at says when: the relay takes a challenge whose time is past for one whose job was
   * lost, oldest first, so an account's thousands of addresses that never answer, left at their first
   * time, filled every relay page and kept it from other accounts' challenges. Without waiting for the
   * disk (ASYNC_COMMIT): lost in a crash, the old time only makes the relay re-add the job, a no-op
   * while it waits; a failed write is only logged, for the same reason.
   */
  private async defer(job: Job<WebhookChallengeJob>, token: string | undefined, busyForMs: number, attemptCount: number): Promise<never> {
    this.metrics.challenge.busy.inc();
    const delayMs = deferralMs(busyForMs);
    await job.moveToDelayed(Date.now() + delayMs, token);
    await this.db
      .query(DEFER_CHALLENGE, [job.data.endpointId, delayMs, attemptCount])
      .catch((error: Error) => this.logger.warn(`webhook address ${job.data.endpointId}: its next challenge time was not recorded: ${error.message}`));
    throw new DelayedError();
  }
}

/** Why a challenge reply does not confirm the address, or undefined when it does. */
function challengeFailure(outcome: SendOutcome, token: string): string | undefined {
  if (outcome.status === undefined) return outcome.error ?? 'no reply';
  if (outcome.status < 200 || outcome.status >= 300) return `HTTP ${outcome.status}`;
  try {
    const answer = JSON.parse(outcome.reply) as { token?: unknown };
    if (answer?.token === token) return undefined;
  } catch {
    // not JSON: falls through
  }
  return 'the reply did not echo the challenge token as {"token": "…"}';
}
