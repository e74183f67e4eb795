import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { within } from '../common/within';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { pgPool } from '../database/prepared-statement';
import { inTimedTransaction } from '../database/timed-transaction';
import { ProducerQueues } from '../queues/producer-queues';
import { REDIS } from '../redis/redis.module';
import type { RedisClient } from '../redis/redis-client';
import { WEBHOOK_ENDPOINT_STATES } from '../webhooks/webhook-endpoint.entity';
import { metricsOfAllProcesses, offerProcessMetrics, sharesItsPort } from './cluster-metrics';
import { METRICS_REGISTRY } from './metrics-registry';

const JOB_STATES = ['waiting', 'prioritized', 'active', 'delayed', 'failed'] as const;

interface DatabaseFigures {
  attempt: string;
  confirmation: string;
  oldest_due_seconds: number | null;
  endpoints: Record<string, number> | null;
}

/**
 * What an operator alerts on, for Prometheus (docs/running.md, "Metrics"). The webhook and queue
 * figures are read from PostgreSQL and Redis at each scrape, so they are the whole system's and the
 * same from whichever process answers: HTTP processes share a port, and a jobs process answers on
 * its own JOBS_HTTP_PORT (bootstrap/jobs-listener.ts). Each source is one cheap read (the pending events' partial index, the small endpoints table,
 * BullMQ's counters) given READYZ_TIMEOUT_MS, as a probe is; one that fails or takes longer has its
 * figures cleared (a gauge without labels reads 0) and says so in `crowdbox_metrics_source_up`. With
 * every pooled connection busy the database's read would otherwise wait for one as long as a request
 * does, and the scrape, pool figures and all, would time out just when they matter.
 * They live in a registry of their own. The process figures (CPU, memory, event-loop lag, GC, requests,
 * webhook attempts, the pool, the Redis client) are in the app's METRICS_REGISTRY: the answering
 * process's own, or with HTTP_PROCESSES > 1 every process's, summed by the supervisor
 * (cluster-metrics.ts; `crowdbox_metrics_source_up{source="processes"}` says whether that worked).
 */
@Injectable()
export class MetricsService {
  /** The whole system's figures, read from PostgreSQL and Redis at each scrape. */
  private readonly system = new Registry();
  private readonly sourceUp: Gauge<'source'>;
  private readonly pending: Gauge<'waiting_for'>;
  private readonly oldestDue: Gauge;
  private readonly endpoints: Gauge<'state'>;
  private readonly jobs: Gauge<'queue' | 'state'>;

  constructor(
    @Inject(METRICS_REGISTRY) private readonly registry: Registry,
    @InjectDataSource() private readonly db: DataSource,
    private readonly queues: ProducerQueues,
    @Inject(REDIS) private readonly redis: RedisClient,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'READYZ_TIMEOUT_MS'>,
  ) {
    collectDefaultMetrics({ register: this.registry, prefix: 'crowdbox_' });
    offerProcessMetrics(this.registry);
    const registers = [this.system];
    this.sourceUp = new Gauge({
      name: 'crowdbox_metrics_source_up',
      help: '1 when this scrape could read the source (postgres, redis; processes: every HTTP process sharing the port), 0 when it could not and left its figures out (processes: this one only)',
      labelNames: ['source'],
      registers,
    });
    this.pending = new Gauge({
      name: 'crowdbox_webhook_events_pending',
      help: 'Events not yet delivered or failed: waiting_for="attempt" have a next attempt time, "confirmation" wait for their address',
      labelNames: ['waiting_for'],
      registers,
    });
    this.oldestDue = new Gauge({
      name: 'crowdbox_webhook_oldest_due_event_age_seconds',
      help: 'How long the oldest event whose attempt is due has been due (0 when none is): deliveries falling behind or stuck',
      registers,
    });
    this.endpoints = new Gauge({ name: 'crowdbox_webhook_endpoints', help: 'Callback addresses by state', labelNames: ['state'], registers });
    this.jobs = new Gauge({ name: 'crowdbox_queue_jobs', help: 'BullMQ jobs by queue and state', labelNames: ['queue', 'state'], registers });
    // Read when the registry is (collect), so the figures are current in whichever process is gathered.
    const database = this.db;
    const shared = this.redis;
    new Gauge({
      name: 'crowdbox_db_pool_connections',
      help: 'PostgreSQL pool connections open (total), unused (idle), the most it may open (max), and queries waiting for one (waiting): summed over processes',
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        const pool = pgPool(database);
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
        // Fixed while the process runs, unlike total (idle connections close after 10 s): saturation is total / max.
        this.set({ state: 'max' }, pool.options.max);
      },
    });
    new Gauge({
      name: 'crowdbox_redis_up',
      help: '1 when the shared Redis client is connected and ready (of every process sharing the port), 0 otherwise',
      registers: [this.registry],
      aggregator: 'min',
      collect() {
        this.set(shared.status === 'ready' ? 1 : 0);
      },
    });
  }

  /** Reads every source, then renders the exposition text; with its content type. */
  async scrape(): Promise<{ body: string; contentType: string }> {
    // The process figures first: the database's read below may itself wait for a connection, and would count as waiting.
    const processes = await this.processMetrics();
    await Promise.all([
      this.read('postgres', () => this.readDatabase(), [this.pending, this.oldestDue, this.endpoints]),
      this.read('redis', () => this.readQueues(), [this.jobs]),
    ]);
    return { body: (await this.system.metrics()) + processes, contentType: this.registry.contentType };
  }

  /** This process's registry, or every process's when several share the port (this one's alone if the supervisor does not answer). */
  private async processMetrics(): Promise<string> {
    if (!sharesItsPort()) return this.registry.metrics();
    try {
      const all = await metricsOfAllProcesses(this.config.READYZ_TIMEOUT_MS);
      this.sourceUp.set({ source: 'processes' }, 1);
      return all;
    } catch (error) {
      this.sourceUp.set({ source: 'processes' }, 0);
      // Why, for whoever reads the text: a comment line, which Prometheus ignores.
      return `# crowdbox_metrics_source_up{source="processes"} 0: ${(error as Error).message.replace(/\n/g, ' ')}\n${await this.registry.metrics()}`;
    }
  }

  /**
   * Runs one source's reader, which reads and hands back what sets its gauges; if it fails or is not done
   * within READYZ_TIMEOUT_MS, its gauges are cleared rather than left at the last scrape's figures (and a
   * late reader sets nothing).
   */
  private async read(source: 'postgres' | 'redis', reader: () => Promise<() => void>, gauges: Array<Gauge<string>>): Promise<void> {
    const set = await within(
      reader().catch(() => undefined),
      this.config.READYZ_TIMEOUT_MS,
      undefined,
    );
    if (set) {
      set();
      this.sourceUp.set({ source }, 1);
    } else {
      for (const gauge of gauges) gauge.reset();
      this.sourceUp.set({ source }, 0);
    }
  }

  /**
   * The backlog's figures. Their statement stops at READYZ_TIMEOUT_MS in the database too: the scrape
   * stops waiting for it then, and a count over millions of pending events (a receiver's long outage),
   * or one waiting on a lock, went on for up to the pool's 30 s, holding a connection, while every
   * later scrape started another.
   */
  private async readDatabase(): Promise<() => void> {
    const [row]: DatabaseFigures[] = await inTimedTransaction(this.db, this.config.READYZ_TIMEOUT_MS, (tx) =>
      tx.query(`
        SELECT count(*) FILTER (WHERE next_attempt_at IS NOT NULL) AS attempt,
               count(*) FILTER (WHERE next_attempt_at IS NULL) AS confirmation,
               extract(epoch FROM now() - min(next_attempt_at) FILTER (WHERE next_attempt_at <= now()))::float8 AS oldest_due_seconds,
               (SELECT json_object_agg(state, n) FROM (SELECT state, count(*) AS n FROM webhook_endpoints GROUP BY state) s) AS endpoints
          FROM webhook_events WHERE state = 'pending'`),
    );
    return () => {
      this.pending.set({ waiting_for: 'attempt' }, Number(row.attempt));
      this.pending.set({ waiting_for: 'confirmation' }, Number(row.confirmation));
      this.oldestDue.set(row.oldest_due_seconds ?? 0);
      for (const state of WEBHOOK_ENDPOINT_STATES) this.endpoints.set({ state }, row.endpoints?.[state] ?? 0);
    };
  }

  private async readQueues(): Promise<() => void> {
    const queues = [this.queues.webhookDelivery, this.queues.webhookChallenge, this.queues.checkoutExpiry];
    const counts = await Promise.all(queues.map((queue) => queue.getJobCounts(...JOB_STATES)));
    return () =>
      queues.forEach((queue, i) => {
        for (const state of JOB_STATES) this.jobs.set({ queue: queue.name, state }, counts[i][state] ?? 0);
      });
  }
}
