import type { WebhookEventResponse, WebhookSettingsResponse } from '@crowdbox/contracts';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApiException } from '../common/errors/api.exception';
import { isUuid } from '../common/crypto.util';
import { isIsoTime } from '../common/validation/iso-time';
import { displayCallbackUrl } from './callback-url';
import { newSigningSecret, PREVIOUS_SECRET_HOURS, previousSecretExpiresSql } from './signing';
import { WebhookJobs } from './webhook-jobs';

const PAGE = 50;
/** Most failed events one "redeliver all failed" takes; the answer says when more are left. */
export const REDELIVER_FAILED_MAX = 10_000;
/**
 * What a redelivery sets on an event: pending again, due now, with a fresh schedule (the attempt log keeps
 * the old ones); `redeliveries` tells an attempt in flight that its outcome no longer decides the event.
 */
const AGAIN = `state = 'pending', attempt_count = 0, next_attempt_at = now(), delivered_at = NULL, last_error = NULL,
               redeliveries = redeliveries + 1`;

/**
 * The statement of a page of the event log (`events`), with its parameters: newest first, 50 a page,
 * filtered by state and after the `before` cursor. Refuses a bad state or cursor in the contract's shape.
 * Exported for the test of its plan (the failed filter reads ix_webhook_events_failed).
 */
export function eventLogQuery(accountId: string, options: { state?: string; before?: string }): { sql: string; params: unknown[] } {
  const params: unknown[] = [accountId];
  let where = 'e.account_id = $1';
  if (options.state) {
    if (!['pending', 'delivered', 'failed'].includes(options.state)) {
      throw ApiException.unprocessable('state', 'must be pending, delivered or failed');
    }
    params.push(options.state);
    where += ` AND e.state = $${params.length}`;
  }
  if (options.before && isUuid(options.before)) {
    params.push(options.before);
    where += ` AND (e.created_at, e.id) < (SELECT c.created_at, c.id FROM webhook_events c WHERE c.id = $${params.length} AND c.account_id = $1)`;
  } else if (options.before) {
    if (!isIsoTime(options.before)) throw ApiException.unprocessable('before', 'must be an event id or an ISO 8601 time');
    params.push(options.before);
    where += ` AND e.created_at < $${params.length}`;
  }
  const sql = `
    SELECT e.id, e.type, e.task_id, ep.url, e.state, e.attempt_count, e.next_attempt_at, e.delivered_at, e.created_at,
            coalesce((SELECT json_agg(json_build_object('attempted_at', a.attempted_at, 'status_code', a.status_code,
                        'duration_ms', a.duration_ms, 'error', a.error, 'response_excerpt', a.response_excerpt)
                        ORDER BY a.attempted_at, a.id)
                        FROM webhook_attempts a WHERE a.event_id = e.id), '[]'::json) AS attempts
       FROM webhook_events e LEFT JOIN webhook_endpoints ep ON ep.id = e.endpoint_id
      WHERE ${where}
      ORDER BY e.created_at DESC, e.id DESC
      LIMIT ${PAGE}`;
  return { sql, params };
}

/** The console's view of an account's webhooks (API.md §4): addresses, secret, the event log, redeliver. */
@Injectable()
export class WebhooksConsoleService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly jobs: WebhookJobs,
  ) {}

  async settings(accountId: string): Promise<WebhookSettingsResponse> {
    const [account]: Array<{ secret: string; previous_expires_at: Date | null }> = await this.db.query(
      `SELECT a.webhook_signing_secret AS secret, ${previousSecretExpiresSql('a')} AS previous_expires_at FROM accounts a WHERE a.id = $1`,
      [accountId],
    );
    const endpoints: Array<{ url: string; state: string; confirmed_at: Date | null; last_error: string | null; created_at: Date }> =
      await this.db.query(
        'SELECT url, state, confirmed_at, last_error, created_at FROM webhook_endpoints WHERE account_id = $1 ORDER BY created_at, id',
        [accountId],
      );
    return {
      signing_secret: account.secret,
      previous_secret_expires_at: account.previous_expires_at?.toISOString() ?? null,
      endpoints: endpoints.map((e) => ({
        url: displayCallbackUrl(e.url),
        state: e.state,
        confirmed_at: e.confirmed_at?.toISOString() ?? null,
        last_error: e.last_error,
        created_at: e.created_at.toISOString(),
      })),
    };
  }

  /**
   * A new signing secret for the account. The one it replaces keeps signing beside it for
   * PREVIOUS_SECRET_HOURS (every delivery carries both signatures), so a receiver can switch its verifier
   * without rejecting anything in between. A second rotation within that time retires the first one's
   * old secret at once: only the secret it replaces overlaps.
   */
  async rotateSigningSecret(accountId: string): Promise<WebhookSettingsResponse> {
    await this.db.query(
      `UPDATE accounts SET webhook_previous_signing_secret = webhook_signing_secret,
              webhook_previous_secret_expires_at = now() + make_interval(hours => $3), webhook_signing_secret = $2
        WHERE id = $1`,
      [accountId, newSigningSecret(), PREVIOUS_SECRET_HOURS],
    );
    return this.settings(accountId);
  }

  /**
   * Newest first, 50 a page. `before` is the id of the previous page's last event (the exact keyset:
   * many events can share a millisecond, and created_at has microseconds the JSON times lack), or an
   * ISO 8601 time (events created before it). An id this account has no event for gives an empty page.
   */
  async events(accountId: string, options: { state?: string; before?: string }): Promise<WebhookEventResponse[]> {
    const { sql, params } = eventLogQuery(accountId, options);
    const rows: Array<{
      id: string;
      type: string;
      task_id: string | null;
      url: string | null;
      state: string;
      attempt_count: number;
      next_attempt_at: Date | null;
      delivered_at: Date | null;
      created_at: Date;
      attempts: Array<{ attempted_at: string; status_code: number | null; duration_ms: number; error: string | null; response_excerpt: string | null }>;
    }> = await this.db.query(sql, params);
    return rows.map((r) => ({
      id: r.id,
      type: r.type,
      task_uuid: r.task_id,
      url: r.url === null ? null : displayCallbackUrl(r.url),
      state: r.state,
      attempt_count: r.attempt_count,
      next_attempt_at: r.next_attempt_at?.toISOString() ?? null,
      delivered_at: r.delivered_at?.toISOString() ?? null,
      created_at: r.created_at.toISOString(),
      attempts: r.attempts.map((a) => ({ ...a, attempted_at: new Date(a.attempted_at).toISOString() })),
    }));
  }

  /**
   * Sends every failed event of the account again (oldest first, at most REDELIVER_FAILED_MAX a call),
   * each with a fresh schedule as `redeliver` gives one: for after a receiver was down longer than the
   * retry schedule. `more` says that failed events are left for another call. An event whose address
   * failed its challenge waits for that address to be re-armed, as any event for it does.
   */
  async redeliverFailed(accountId: string): Promise<{ redelivered: number; more: boolean }> {
    const rows: Array<{ id: string }> = await this.db.query(
      `WITH again AS (
         UPDATE webhook_events SET ${AGAIN}
          WHERE id IN (SELECT id FROM webhook_events WHERE account_id = $1 AND state = 'failed'
                        ORDER BY created_at, id LIMIT ${REDELIVER_FAILED_MAX} FOR UPDATE SKIP LOCKED)
          RETURNING id
       ) SELECT id FROM again`,
      [accountId],
    );
    // A failed event has no job left (removeOnFail), but for one whose job is just ending; the relay covers any add that fails.
    await this.jobs.sendAgain(rows.map((row) => row.id));
    return { redelivered: rows.length, more: rows.length === REDELIVER_FAILED_MAX };
  }

  /**
   * Sends an event again, whatever its state: a fresh schedule of attempts (the log keeps the old ones).
   * For an address still awaiting confirmation the event waits as any other.
   */
  async redeliver(accountId: string, eventId: string): Promise<{ id: string; state: string }> {
    if (!isUuid(eventId)) throw ApiException.notFound('event not found');
    const rows: Array<{ id: string }> = await this.db.query(
      `WITH again AS (
         UPDATE webhook_events SET ${AGAIN}
          WHERE id = $1 AND account_id = $2 RETURNING id
       ) SELECT id FROM again`,
      [eventId, accountId],
    );
    if (!rows[0]) throw ApiException.notFound('event not found');
    // A job still queued for this event (a delayed retry) is replaced by one that runs now. `eventId` is
    // the stored spelling, lower case (IdParam), as the job's id must be.
    await this.jobs.deliveries.remove(eventId).catch(() => 0);
    await this.jobs.sendAgain([eventId]);
    return { id: eventId, state: 'pending' };
  }
}
