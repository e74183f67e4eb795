import { Logger } from '@nestjs/common';

export const SHUTDOWN_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * SHUTDOWN_TIMEOUT_MS: once SIGTERM or SIGINT has come, the process exits with code 1 after that long
 * if Nest's shutdown (app.enableShutdownHooks in create-app.ts) has not ended it by then: a request or
 * a job that does not end, a pool that does not close. (Closing a BullMQ worker used to wait for Redis
 * for as long as it was away; that wait has its own bound now, REDIS_CLOSE_GRACE_MS in
 * queues/logged-bull-classes.ts.) A supervisor or orchestrator waiting on the process waits no longer.
 *
 * Called before the app is built. A signal that comes before Nest listens for it is passed on to the
 * default action (the process ends at once), as it would be without this listener.
 */
export function armShutdownDeadline(timeoutMs: number, logger: Pick<Logger, 'log' | 'error'> = new Logger('Shutdown')): void {
  for (const signal of SHUTDOWN_SIGNALS) {
    process.once(signal, () => {
      // A once-listener is removed before it runs: whoever is left is Nest, or nobody.
      if (process.listenerCount(signal) === 0) {
        process.kill(process.pid, signal);
        return;
      }
      logger.log(`${signal}: shutting down, at most SHUTDOWN_TIMEOUT_MS (${timeoutMs} ms)`);
      setTimeout(() => {
        logger.error(`shutdown did not finish within SHUTDOWN_TIMEOUT_MS (${timeoutMs} ms) of ${signal}; exiting with code 1`);
        process.exit(1);
      }, timeoutMs).unref();
    });
  }
}
