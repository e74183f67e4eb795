/**
 * A background pass (the relay, the consensus refresh, a housekeeping pass) that runs one at a time and
 * stops for a shutdown: `run` skips while a pass is running or once stopped, and `stop` resolves when the
 * running one has ended. Stopped from beforeApplicationShutdown, before any shutdown hook closes the
 * pool or Redis the pass uses (Nest runs those module by module, TypeORM's first); a pass that takes a
 * while checks `stopped` between its steps.
 */
export class OnePass {
  private running?: Promise<number>;
  private stopping = false;

  get stopped(): boolean {
    return this.stopping;
  }

  /** Runs `pass` unless one is running or a stop came; its result, else 0. */
  async run(pass: () => Promise<number>): Promise<number> {
    if (this.running || this.stopping) return 0;
    this.running = pass();
    try {
      return await this.running;
    } finally {
      this.running = undefined;
    }
  }

  /** No pass from now on; resolves once the running one, if any, has ended (however it ended). */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.running?.catch(() => undefined);
  }
}
