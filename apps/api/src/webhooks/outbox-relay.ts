import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { REDIS } from '../redis/redis.module';
import { WebhookJobs } from './webhook-jobs';

const BATCH = 1000;

/**
 * Nothing is lost between PostgreSQL and Redis (DESIGN.md §3): every few seconds, events and
 * challenges whose next attempt is overdue by more than the grace period (a crash between commit and
 * enqueue, a Redis outage, a flushed Redis) are put back on their queues. Adding a job whose id is
 * already queued is a no-op, so the relay never duplicates live work. Runs in roles jobs and all.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(OutboxRelay.name);
  private timer?: NodeJS.Timeout;
  private running = false;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly jobs: WebhookJobs,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.tick(), this.config.WEBHOOK_RELAY_INTERVAL_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** One pass; returns how many jobs it (re)enqueued. Skipped while Redis is away or a pass runs. */
  async tick(): Promise<number> {
    if (this.running || this.redis.status !== 'ready') return 0;
    this.running = true;
    try {
      const grace = this.config.WEBHOOK_RELAY_GRACE_MS;
      const events: Array<{ id: string }> = await this.db.query(
        `SELECT e.id FROM webhook_events e JOIN webhook_endpoints ep ON ep.id = e.endpoint_id
          WHERE e.state = 'pending' AND ep.state = 'confirmed'
            AND e.next_attempt_at <= now() - make_interval(secs => $1::double precision / 1000)
          ORDER BY e.next_attempt_at LIMIT ${BATCH}`,
        [grace],
      );
      const endpoints: Array<{ id: string }> = await this.db.query(
        `SELECT id FROM webhook_endpoints
          WHERE state = 'pending' AND next_attempt_at <= now() - make_interval(secs => $1::double precision / 1000)
          ORDER BY next_attempt_at LIMIT ${BATCH}`,
        [grace],
      );
      for (const e of events) await this.jobs.addDelivery(e.id);
      for (const ep of endpoints) await this.jobs.addChallenge(ep.id);
      return events.length + endpoints.length;
    } catch (error) {
      this.logger.warn(`outbox relay pass failed: ${(error as Error).message}`);
      return 0;
    } finally {
      this.running = false;
    }
  }
}
