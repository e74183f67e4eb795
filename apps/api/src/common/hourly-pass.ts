/** The first pass comes soon after boot (a process restarted often still gets its passes), then one an hour. */
export const FIRST_PASS_MS = 60_000;
export const PASS_EVERY_MS = 3_600_000;

/**
 * The schedule of a housekeeping pass (the delivery log's retention, expired sessions): a minute after
 * start, then an hour after each pass ends, so passes never overlap; none once stopped, even when the
 * pass running at the stop ends after it. The timer does not hold the process open.
 */
export class HourlyPass {
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(private readonly pass: () => Promise<unknown>) {}

  start(): void {
    this.next(FIRST_PASS_MS);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private next(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.pass().finally(() => this.next(PASS_EVERY_MS));
    }, delayMs);
    this.timer.unref();
  }
}
