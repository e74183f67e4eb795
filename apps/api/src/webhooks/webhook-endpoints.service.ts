import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { randomSecret } from '../common/crypto.util';
import { TtlCache } from '../common/ttl-cache';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { runPrepared, type PreparedStatement } from '../database/prepared-statement';
import { normalizeCallbackUrl } from './callback-url';
import { WebhookJobs } from './webhook-jobs';

const MAX_CACHED = 20_000;

/**
 * Registers an address, or re-arms a failed one: a new address starts `pending` with a fresh challenge
 * token; `failed` goes back to `pending` with a new token and schedule; `pending` and `confirmed` are
 * left as they are. `armed` is true when a challenge must be (re)scheduled.
 */
const REGISTER: PreparedStatement = {
  name: 'webhook_endpoints_register',
  text: `
    INSERT INTO webhook_endpoints (id, account_id, url, state, challenge_token, next_attempt_at)
    VALUES ($1, $2, $3, 'pending', $4, now())
    ON CONFLICT (account_id, url) DO UPDATE
       SET state = 'pending', challenge_token = excluded.challenge_token, attempt_count = 0,
           next_attempt_at = now(), last_error = NULL, updated_at = now()
     WHERE webhook_endpoints.state = 'failed'
    RETURNING id, true AS armed`,
};

@Injectable()
export class WebhookEndpointsService {
  /** (account, normalized url) -> endpoint id, for confirmed addresses (they never need arming). */
  private readonly known: TtlCache<string, { id: string }>;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly jobs: WebhookJobs,
  ) {
    this.known = new TtlCache(config.CACHE_TTL_MS, MAX_CACHED);
  }

  /**
   * The endpoint id for a task's callback_url, registering the address on first use (API.md §2), and
   * whether its challenge must now be scheduled (scheduleChallenge, once `on`'s transaction commits: the
   * challenge job reads the row). Called by add_task for every live task with a callback; cached so the
   * usual case costs nothing.
   */
  async register(accountId: string, callbackUrl: string, on: DataSource | EntityManager = this.db): Promise<{ id: string; armed: boolean }> {
    const url = normalizeCallbackUrl(callbackUrl);
    const cacheKey = `${accountId} ${url}`;
    const hit = this.known.peek(cacheKey);
    if (hit) return { id: hit.id, armed: false };

    const armed = await runPrepared<{ id: string }>(on, REGISTER, [randomUUID(), accountId, url, randomSecret(24)]);
    if (armed[0]) return { id: armed[0].id, armed: true };
    const rows: Array<{ id: string; state: string }> = await on.query('SELECT id, state FROM webhook_endpoints WHERE account_id = $1 AND url = $2', [
      accountId,
      url,
    ]);
    const id = rows[0].id;
    // Only a confirmed address is cached: a pending one may still fail and must be re-armed by the next call.
    if (rows[0].state === 'confirmed') this.known.set(cacheKey, { id });
    return { id, armed: false };
  }

  /** Schedules the challenge of an address register() armed; if Redis is away, the relay does it later. */
  scheduleChallenge(endpointId: string): void {
    this.jobs.scheduleChallenge(endpointId);
  }
}
