import type { Logger } from '@nestjs/common';

/** How long the same error message is logged only once. */
const WINDOW_MS = 60_000;
/** Messages remembered at most; an outage repeats a handful (one per address and kind). */
const MAX_MESSAGES = 100;

type Log = Pick<Logger, 'warn'>;

/**
 * Warnings that an outage repeats by the thousand (a Redis that is away fails every reconnect, every
 * job add), each message logged once a minute at most (whichever source met it first names it), the next line saying how many were left out:
 * "connect ECONNREFUSED 127.0.0.1:6379 (and 57 more like it in the last 60 s)". So a log's volume
 * follows what went wrong, not the traffic. Callers put what varies per item (a lease's id) in no
 * message, only the reason.
 */
export class RepeatedWarnings {
  private readonly seen = new Map<string, { until: number; left: number }>();

  constructor(
    private readonly logger: Log,
    private readonly windowMs = WINDOW_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Listens for `emitter`'s errors (a BullMQ queue or worker); `source` names it in the line ("worker checkout-expiry"). */
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
