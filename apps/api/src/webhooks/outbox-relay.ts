import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { RedisClient } from '../redis/redis-client';
import { DataSource } from 'typeorm';
import { OnePass } from '../common/one-pass';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { REDIS } from '../redis/redis.module';
import { RELEASE_PAGE, releaseParkedPage, releasesOwed } from './parked-events';
import { addInChunks, WebhookJobs } from './webhook-jobs';

/** Rows per query, whose jobs are then added ADD_CHUNK at a time (webhook-jobs.ts), each chunk one pipelined write. */
const PAGE = 1000;
/**
 * Pages per pass: up to 10,000 delivery jobs every WEBHOOK_RELAY_INTERVAL_MS (2,000/s at 5 s), about what
 * a jobs process can deliver on two cores, so a backlog after a long Redis outage, or of events that
 * waited days for their address, drains at delivery speed without piling all of it into Redis's memory
 * at once. The next pass takes the rest. (Challenges have as many again: they are few.)
 */
const MAX_PAGES = 10;
const MAX_DELIVERIES = PAGE * MAX_PAGES;

/**
 * A page of overdue rows, oldest first, after the keyset ($2: the time as text, $3: the id); $1 is the
 * grace in ms. Straight from the pending events' index, in its order (~10 ms a page at 300,000 overdue
 * events; joined to the addresses, the planner sorted the whole backlog for each page, ~0.5 s). Every
 * overdue event gets its job, whatever its address's state: the job parks one whose address is not
 * confirmed and ends one whose address is gone, so none stays overdue to fill the relay's pages.
 */
const OVERDUE_EVENTS = `
  SELECT id, next_attempt_at::text AS at FROM webhook_events
   WHERE state = 'pending' AND next_attempt_at <= now() - make_interval(secs => $1::double precision / 1000)
     AND ($2::timestamptz IS NULL OR (next_attempt_at, id) > ($2::timestamptz, $3::uuid))
   ORDER BY next_attempt_at, id LIMIT ${PAGE}`;
const OVERDUE_CHALLENGES = `
  SELECT id, next_attempt_at::text AS at FROM webhook_endpoints
   WHERE state = 'pending' AND next_attempt_at <= now() - make_interval(secs => $1::double precision / 1000)
     AND ($2::timestamptz IS NULL OR (next_attempt_at, id) > ($2::timestamptz, $3::uuid))
   ORDER BY next_attempt_at, id LIMIT ${PAGE}`;

/**
 * Nothing is lost between PostgreSQL and Redis (DESIGN.md §3): every few seconds, events and
 * challenges whose next attempt is overdue by more than the grace period (a crash between commit and
 * enqueue, a Redis outage, a flushed Redis) are put back on their queues. Adding a job whose id is
 * already queued is a no-op, so the relay never duplicates live work. It also goes on releasing the
 * events that waited for an address confirmed since (parked-events.ts), in the room the overdue events
 * leave in the pass: while deliveries lag (released events overdue in turn), it releases less.
 * Runs in roles jobs and all.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(OutboxRelay.name);
  private timer?: NodeJS.Timeout;
  private readonly passes = new OnePass();

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(REDIS) private readonly redis: RedisClient,
    private readonly jobs: WebhookJobs,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.tick(), this.config.WEBHOOK_RELAY_INTERVAL_MS);
    this.timer.unref();
  }

  /**
   * Before the shutdown hooks, which close the pool (TypeORM's) and Redis module by module, so a pass
   * must not start or be left running on them: no more passes, and the one running ends first.
   */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.passes.stop();
  }

  /** One pass; returns how many jobs it (re)enqueued. Skipped while Redis is away or a pass runs. */
  async tick(): Promise<number> {
    if (this.redis.status !== 'ready') return 0;
    return this.passes.run(() => this.pass());
  }

  private async pass(): Promise<number> {
    try {
      const events = await this.enqueueOverdue(OVERDUE_EVENTS, (id) => this.jobs.addDelivery(id));
      const released = await this.releaseParked(MAX_DELIVERIES - events);
      const challenges = await this.enqueueOverdue(OVERDUE_CHALLENGES, (id) => this.jobs.addChallenge(id));
      return events + released + challenges;
    } catch (error) {
      this.logger.warn(`outbox relay pass failed: ${(error as Error).message}`);
      return 0;
    }
  }

  /**
   * Walks the overdue rows by (next_attempt_at, id), a page at a time, adding each page's jobs
   * ADD_CHUNK at a time: a backlog larger than a page (a long Redis outage) is not left to one page per pass. The keyset
   * carries the time as PostgreSQL's text, which keeps the microseconds a JS Date would drop.
   */
  private async enqueueOverdue(sql: string, add: (id: string) => Promise<void>): Promise<number> {
    let after: { at: string; id: string } | undefined;
    let total = 0;
    for (let page = 0; page < MAX_PAGES; page++) {
      const rows: Array<{ id: string; at: string }> = await this.db.query(sql, [this.config.WEBHOOK_RELAY_GRACE_MS, after?.at ?? null, after?.id ?? null]);
      await addInChunks(rows.map((row) => row.id), add);
      total += rows.length;
      if (rows.length < PAGE) break;
      after = rows[rows.length - 1];
    }
    return total;
  }

  /** Releases and enqueues pages of parked events of confirmed addresses, up to `room` jobs, oldest release first. */
  private async releaseParked(room: number): Promise<number> {
    if (room < RELEASE_PAGE) return 0;
    let total = 0;
    for (const endpointId of await releasesOwed(this.db, Math.floor(room / RELEASE_PAGE))) {
      for (;;) {
        if (total + RELEASE_PAGE > room) return total;
        const ids = await releaseParkedPage(this.db, endpointId);
        await addInChunks(ids, (id) => this.jobs.addDelivery(id));
        total += ids.length;
        if (ids.length < RELEASE_PAGE) break;
      }
    }
    return total;
  }
}
