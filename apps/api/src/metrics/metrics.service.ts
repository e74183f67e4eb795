import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { collectDefaultMetrics, Gauge, type Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { ProducerQueues } from '../queues/producer-queues';
import { WEBHOOK_ENDPOINT_STATES } from '../webhooks/webhook-endpoint.entity';
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
 * same from whichever process answers: HTTP processes share a port, and jobs processes serve no HTTP
 * at all. Each source is one cheap read (the pending events' partial index, the small endpoints table,
 * BullMQ's counters); one that fails has its figures cleared (a gauge without labels reads 0) and says so in
 * `crowdbox_metrics_source_up`.
 * The process figures (CPU, memory, event-loop lag, GC) are the answering process's own.
 */
@Injectable()
export class MetricsService {
  private readonly sourceUp: Gauge<'source'>;
  private readonly pending: Gauge<'waiting_for'>;
  private readonly oldestDue: Gauge;
  private readonly endpoints: Gauge<'state'>;
  private readonly jobs: Gauge<'queue' | 'state'>;

  constructor(
    @Inject(METRICS_REGISTRY) private readonly registry: Registry,
    @InjectDataSource() private readonly db: DataSource,
    private readonly queues: ProducerQueues,
  ) {
    collectDefaultMetrics({ register: this.registry, prefix: 'crowdbox_' });
    const registers = [this.registry];
    this.sourceUp = new Gauge({
      name: 'crowdbox_metrics_source_up',
      help: '1 when this scrape could read the source (postgres, redis), 0 when it could not and left its figures out',
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
  }

  /** Reads every source, then renders the exposition text; with its content type. */
  async scrape(): Promise<{ body: string; contentType: string }> {
    await Promise.all([
      this.read('postgres', () => this.readDatabase(), [this.pending, this.oldestDue, this.endpoints]),
      this.read('redis', () => this.readQueues(), [this.jobs]),
    ]);
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }

  /** Runs one source's reader; if it fails, its gauges are cleared rather than left at the last scrape's figures. */
  private async read(source: 'postgres' | 'redis', reader: () => Promise<void>, gauges: Array<Gauge<string>>): Promise<void> {
    try {
      await reader();
      this.sourceUp.set({ source }, 1);
    } catch {
      for (const gauge of gauges) gauge.reset();
      this.sourceUp.set({ source }, 0);
    }
  }

  private async readDatabase(): Promise<void> {
    const [row]: DatabaseFigures[] = await this.db.query(`
      SELECT count(*) FILTER (WHERE next_attempt_at IS NOT NULL) AS attempt,
             count(*) FILTER (WHERE next_attempt_at IS NULL) AS confirmation,
             extract(epoch FROM now() - min(next_attempt_at) FILTER (WHERE next_attempt_at <= now()))::float8 AS oldest_due_seconds,
             (SELECT json_object_agg(state, n) FROM (SELECT state, count(*) AS n FROM webhook_endpoints GROUP BY state) s) AS endpoints
        FROM webhook_events WHERE state = 'pending'`);
    this.pending.set({ waiting_for: 'attempt' }, Number(row.attempt));
    this.pending.set({ waiting_for: 'confirmation' }, Number(row.confirmation));
    this.oldestDue.set(row.oldest_due_seconds ?? 0);
    for (const state of WEBHOOK_ENDPOINT_STATES) this.endpoints.set({ state }, row.endpoints?.[state] ?? 0);
  }

  private async readQueues(): Promise<void> {
    const queues = [this.queues.webhookDelivery, this.queues.webhookChallenge, this.queues.checkoutExpiry];
    const counts = await Promise.all(queues.map((queue) => queue.getJobCounts(...JOB_STATES)));
    queues.forEach((queue, i) => {
      for (const state of JOB_STATES) this.jobs.set({ queue: queue.name, state }, counts[i][state] ?? 0);
    });
  }
}
