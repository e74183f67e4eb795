import { Logger } from '@nestjs/common';

/** How long the same error message is logged only once. */
const WINDOW_MS = 60_000;
/** Messages remembered at most; an outage repeats a handful (one per address and kind). */
const MAX_MESSAGES = 100;

type Log = Pick<Logger, 'warn'>;

/**
 * BullMQ's error events, as warnings in the JSON log: a queue or worker with no 'error' listener has
 * BullMQ print each error with its stack through console.error, bypassing the log. During a Redis
 * outage every connection emits one per reconnect attempt, so a message is logged once a minute at
 * most, the next line saying how many were left out: "connect ECONNREFUSED 127.0.0.1:6379 (and 57 more
 * like it in the last 60 s)".
 */
export class BullErrorLog {
  private readonly seen = new Map<string, { until: number; left: number }>();

  constructor(
    private readonly logger: Log = new Logger('BullMQ'),
    private readonly windowMs = WINDOW_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Listens for `emitter`'s errors; `source` names it in the line ("worker checkout-expiry"). */
  watch(emitter: { on(event: 'error', listener: (error: Error) => void): unknown }, source: string): void {
    emitter.on('error', (error) => this.report(source, error));
  }

  report(source: string, error: Error): void {
    const now = this.now();
    const key = error.message;
    const last = this.seen.get(key);
    if (last && now < last.until) {
      last.left++;
      return;
    }
    if (!last && this.seen.size >= MAX_MESSAGES) this.forgetOld(now);
    this.seen.delete(key);
    this.seen.set(key, { until: now + this.windowMs, left: 0 });
    const more = last && last.left > 0 ? ` (and ${last.left} more like it in the last ${Math.round(this.windowMs / 1000)} s)` : '';
    this.logger.warn(`${source}: ${error.message}${more}`);
  }

  private forgetOld(now: number): void {
    for (const [key, entry] of this.seen) if (entry.until <= now) this.seen.delete(key);
    // Still full (that many distinct messages within a minute): drop the oldest.
    if (this.seen.size >= MAX_MESSAGES) this.seen.delete(this.seen.keys().next().value as string);
  }
}

/** The one instance of this process: BullMQ's classes are built by @nestjs/bullmq, outside DI. */
export const bullErrorLog = new BullErrorLog();
