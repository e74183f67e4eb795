import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { RepeatedWarnings } from '../common/repeated-warnings';
import { ProducerQueues } from '../queues/producer-queues';

export function expiryJobId(checkoutId: string): string {
  return `expire-${checkoutId}`;
}

/** How long a lease of `allowedMs` lives before its job is added: half its allowed time, at most `maxGraceMs`. */
export function leaseGraceMs(allowedMs: number, maxGraceMs: number): number {
  return Math.max(0, Math.min(allowedMs / 2, maxGraceMs));
}

/** Leases waiting for their grace at most, per process; past that, new leases get their job at once. */
export const MAX_PENDING = 100_000;

/** A lease whose job is not added yet. */
interface Pending {
  expiresAt: Date;
  /** When its grace ends, on this process's clock. */
  dueAt: number;
}

/**
 * The `checkout-expiry` job of each lease (jobId from the checkout id, run a second after `expires_at`),
 * added once the lease has lived its grace: half its allowed time, at most
 * CHECKOUT_EXPIRY_JOB_GRACE_MS (60 s). Most leases end sooner, and a lease that ended has no use for a
 * job, so they never cost Redis anything: no add at checkout, no removal at submit or release
 * (docs/decisions.md, "Expiry"). Every tick, the leases whose grace is over and that are still active
 * in the database get their job. Fire and forget: correctness never depends on the job (every query
 * treats `expires_at <= now()` as free, and the sweep catches what the queue missed, a process that
 * died with leases in its grace included), so a slow or absent Redis must not delay or fail a checkout
 * or a submit.
 */
@Injectable()
export class CheckoutExpiryScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(CheckoutExpiryScheduler.name);
  /** A Redis outage fails every lease's add: one line a minute per reason, not one per lease. */
  private readonly warnings = new RepeatedWarnings(this.logger);
  private readonly pending = new Map<string, Pending>();
  private readonly maxGraceMs: number;
  private timer?: NodeJS.Timeout;
  private flushing?: Promise<void>;

  constructor(
    private readonly queues: ProducerQueues,
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.maxGraceMs = config.CHECKOUT_EXPIRY_JOB_GRACE_MS;
  }

  onApplicationBootstrap(): void {
    if (this.maxGraceMs === 0) return;
    const tick = Math.min(1000, Math.max(20, Math.floor(this.maxGraceMs / 4)));
    this.timer = setInterval(() => void this.flush().catch((error: Error) => this.logger.warn(`expiry jobs not added: ${error.message}`)), tick);
    this.timer.unref();
  }

  /** On the way down, the leases still in their grace get their jobs now rather than wait for the sweep. */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush(true);
  }

  /** A new lease: its job is added when its grace is over, if it is still active then. */
  leased(checkoutId: string, checkedOutAt: Date, expiresAt: Date): void {
    const graceMs = leaseGraceMs(expiresAt.getTime() - checkedOutAt.getTime(), this.maxGraceMs);
    if (graceMs <= 0 || this.pending.size >= MAX_PENDING) return this.schedule(checkoutId, expiresAt);
    this.pending.set(checkoutId, { expiresAt, dueAt: Date.now() + graceMs });
  }

  /**
   * A lease that ended (submitted or released). Still in its grace here, it costs Redis nothing. Any
   * other lease may have a job (added after its grace, at checkout, or by the process that leased it),
   * so its removal is sent. (A tick that found the lease active just before it ended adds a job that is
   * skipped when it runs.)
   */
  ended(checkoutId: string): void {
    if (this.pending.delete(checkoutId)) return;
    this.unschedule(checkoutId);
  }

  /** Adds a lease's job now. */
  schedule(checkoutId: string, expiresAt: Date): void {
    void this.enqueue(checkoutId, expiresAt);
  }

  /**
   * A submitted or released lease's job has nothing left to do, but would sit in Redis until its time:
   * about 1 KB per lease for up to a day (allowed_completion_time_seconds). A job already running, or a
   * removal lost, finds the lease ended and is skipped.
   */
  unschedule(checkoutId: string): void {
    if (this.queues.notReady()) return;
    void this.queues.checkoutExpiry
      .remove(expiryJobId(checkoutId))
      .catch((error: Error) => this.warnings.report('expiry jobs of ended leases not removed (they will find the lease ended)', error));
  }

  /** Adds the jobs of the leases whose grace is over (`all`: of every lease in its grace) that are still active. */
  async flush(all = false): Promise<void> {
    // One flush at a time. A tick leaves to the next tick what a running flush has not taken; a flush
    // of every lease (shutdown) waits for the running one and then takes the rest.
    if (this.flushing) {
      if (!all) return this.flushing;
      await this.flushing;
    }
    this.flushing = this.addDue(all).finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  private async addDue(all: boolean): Promise<void> {
    const now = Date.now();
    const due = [...this.pending].filter(([, lease]) => all || lease.dueAt <= now);
    if (due.length === 0) return;
    for (const [id] of due) this.pending.delete(id);
    const active = await this.stillActive(due.map(([id]) => id));
    await Promise.all(due.filter(([id]) => active.has(id)).map(([id, lease]) => this.enqueue(id, lease.expiresAt)));
  }

  /** The ids of leases that have not ended; all of them when the database cannot say (their jobs find out). */
  private async stillActive(ids: string[]): Promise<Set<string>> {
    try {
      const rows: Array<{ id: string }> = await this.db.query(`SELECT id FROM checkouts WHERE id = ANY($1::uuid[]) AND state = 'active'`, [ids]);
      return new Set(rows.map((row) => row.id));
    } catch (error) {
      this.logger.warn(`could not tell which of ${ids.length} leases are still active; adding all their expiry jobs: ${(error as Error).message}`);
      return new Set(ids);
    }
  }

  private async enqueue(checkoutId: string, expiresAt: Date): Promise<void> {
    try {
      const notReady = this.queues.notReady();
      if (notReady) throw new Error(notReady);
      await this.queues.checkoutExpiry.add(
        'expire',
        { checkoutId },
        // A second late, so the job never runs a hair before expires_at and finds nothing to do.
        { jobId: expiryJobId(checkoutId), delay: Math.max(0, expiresAt.getTime() - Date.now()) + 1000 },
      );
    } catch (error) {
      this.warnings.report('expiry jobs not scheduled (the sweeper will expire those leases)', error as Error);
    }
  }
}
