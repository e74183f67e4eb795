import type { BeforeApplicationShutdown, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { OnePass } from './one-pass';

/** When a housekeeping pass first runs after start, and then after each pass has ended. */
export interface PassTimes {
  firstMs: number;
  everyMs: number;
}

/** The first pass comes soon after boot (a process restarted often still gets its passes), then one an hour. */
export const HOURLY: PassTimes = { firstMs: 60_000, everyMs: 3_600_000 };

/**
 * The schedule of a housekeeping pass (the delivery log's retention, expired sessions): `firstMs` after
 * start, then `everyMs` after each pass ends, so passes never overlap; none once stopped, even when the
 * pass running at the stop ends after it. The timer does not hold the process open.
 */
export class PassSchedule {
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly pass: () => Promise<unknown>,
    private readonly times: PassTimes,
  ) {}

  start(): void {
    this.next(this.times.firstMs);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private next(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.pass().finally(() => this.next(this.times.everyMs));
    }, delayMs);
    this.timer.unref();
  }
}

/**
 * A provider whose housekeeping pass runs on a PassSchedule (hourly unless `passTimes` says otherwise) from
 * the application's bootstrap to its shutdown: the webhook log's retention, expired sessions, stale
 * Idempotency-Key records, and tasks left open in archived projects. Runs in roles jobs and all, where
 * their modules register it; safe with several such processes.
 *
 * Stopped before the application's shutdown hooks (beforeApplicationShutdown), not in them: Nest runs
 * those module by module, and TypeORM's closes the pool before a feature module's would have stopped
 * its pass, whose next statement then failed on an ended pool. The shutdown waits for the pass's
 * statement in flight; the pass stops between batches (`stopping`).
 */
export abstract class Housekeeping implements OnApplicationBootstrap, BeforeApplicationShutdown {
  // Made at bootstrap, once a subclass's `passTimes` can answer. `this.prune` is looked up at each pass,
  // so a test's spy on it is the one that runs.
  private schedule?: PassSchedule;
  private readonly passes = new OnePass();

  /** One pass's work: how many rows it deleted (or changed). */
  protected abstract pass(): Promise<number>;

  /** When the passes run. */
  protected passTimes(): PassTimes {
    return HOURLY;
  }

  /** Whether the passes run at all in this configuration. */
  protected enabled(): boolean {
    return true;
  }

  /** Whether the application is shutting down: a pass ends after its current statement. */
  protected stopping(): boolean {
    return this.passes.stopped;
  }

  /** One pass: how many rows it deleted (or changed); 0 when passes are off, one is already running, or shutting down. */
  async prune(): Promise<number> {
    return this.enabled() ? this.passes.run(() => this.pass()) : 0;
  }

  onApplicationBootstrap(): void {
    if (!this.enabled()) return;
    this.schedule = new PassSchedule(() => this.prune(), this.passTimes());
    this.schedule.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.schedule?.stop();
    await this.passes.stop();
  }
}

/** Rows one housekeeping DELETE removes: short transactions, so the hot path never queues behind a pass. */
export const DELETE_BATCH = 1000;

/**
 * A housekeeping pass's deletes: runs `sql`, a DELETE of at most DELETE_BATCH rows (given as the
 * parameter after `params`), until a run deletes fewer, or `stopping()` says the application is shutting
 * down. Returns how many rows went, also when a failure stopped it (logged as a warning: the next pass
 * carries on), and logs the total as `deleted N <what>`.
 */
export async function deleteInBatches(
  db: DataSource,
  logger: Logger,
  what: string,
  sql: string,
  params: unknown[],
  stopping: () => boolean,
): Promise<number> {
  let deleted = 0;
  try {
    while (!stopping()) {
      const [, count]: [unknown, number] = await db.query(sql, [...params, DELETE_BATCH]);
      deleted += count;
      if (count < DELETE_BATCH) break;
    }
    return deleted;
  } catch (error) {
    logger.warn(`deleting ${what} stopped after ${deleted}: ${(error as Error).message}`);
    return deleted;
  } finally {
    if (deleted > 0) logger.log(`deleted ${deleted} ${what}`);
  }
}
