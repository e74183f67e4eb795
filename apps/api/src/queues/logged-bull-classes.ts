import { Logger } from '@nestjs/common';
import { Queue, Worker, type Job } from 'bullmq';
import { bullErrorLog } from './bull-error-log';
import { within } from '../common/within';

/**
 * How long a closing worker gives Redis, once no job of its own is running, to take the outcome of the
 * last jobs and close its connections, before cutting them. A healthy Redis needs milliseconds; one that
 * is away would otherwise keep the close, and so the process's shutdown, waiting until it came back.
 */
export const REDIS_CLOSE_GRACE_MS = 2_000;

const closeLog = new Logger('BullMQ');

/**
 * What a processor throws to put its job back on the queue on purpose (moveToDelayed, moveToWait,
 * waiting for children, a rate limit): the webhook processors' retries and deferrals. BullMQ 6 emits no
 * 'failed' for these; checked by name all the same, so that a BullMQ that did would not count every
 * webhook retry as a failure.
 */
const RESCHEDULES = new Set(['DelayedError', 'WaitingError', 'WaitingChildrenError', 'RateLimitError']);

/**
 * The Queue and Worker classes that @nestjs/bullmq builds (BullModule.queueClass and workerClass, set in
 * queues.module.ts): BullMQ's own, with an 'error' listener from the moment they exist, since their
 * connections fail asynchronously right after construction when Redis is away at boot.
 */
export class LoggedQueue extends Queue {
  constructor(...args: ConstructorParameters<typeof Queue>) {
    super(...args);
    bullErrorLog.watch(this, `queue ${this.name}`);
  }
}

export class LoggedWorker extends Worker {
  /**
   * Jobs this worker saw fail, rendered as crowdbox_queue_job_failures_total by QueueMetrics. A tally
   * here rather than a counter: the worker is built outside DI, where the app's metrics registry is out
   * of reach, and it runs jobs from then on, before any provider could add a listener.
   */
  failures = 0;

  /** The processor calls still running: what a close waits for in full, whatever Redis does. */
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(...args: ConstructorParameters<typeof Worker>) {
    super(...args);
    bullErrorLog.watch(this, `worker ${this.name}`);
    this.on('failed', (job, error) => this.reportFailure(job, error));
  }

  protected override callProcessJob(...args: Parameters<Worker['callProcessJob']>): ReturnType<Worker['callProcessJob']> {
    const call = super.callProcessJob(...args);
    const settled = call.then(
      () => undefined,
      () => undefined,
    );
    this.inFlight.add(settled);
    void settled.then(() => this.inFlight.delete(settled));
    return call;
  }

  /**
   * BullMQ's close, bounded once the jobs are done. The close waits for the running jobs, then for Redis
   * to record their outcome and end the connections; while Redis is away those commands wait in
   * ioredis's offline queue (maxRetriesPerRequest is null for workers) and the close would wait as long
   * as the outage, holding the process's shutdown until SHUTDOWN_TIMEOUT_MS killed it. A job's work is
   * in PostgreSQL by then; the outcome Redis did not take is a stalled job, which BullMQ runs again
   * (every processor is idempotent), or none, as the sweeper and the outbox relay start over from the
   * database. So after REDIS_CLOSE_GRACE_MS the connections are cut, which fails what waits on them and
   * lets the close end.
   */
  override async close(force = false): Promise<void> {
    const closing = super.close(force);
    const closed = closing.then(
      () => true,
      () => true,
    );
    await Promise.race([closed, this.idle()]);
    if (await within(closed, REDIS_CLOSE_GRACE_MS, false)) return closing;
    closeLog.warn(`worker ${this.name}: Redis did not let it close within ${REDIS_CLOSE_GRACE_MS} ms of its last job; cutting its connections`);
    // Not this.disconnect(): it first waits for the connection to have been ready once, which a
    // connection that never reached Redis never was. A forced close of the connections does not wait.
    await this.backend.close(true).catch(() => undefined);
    await within(closed, REDIS_CLOSE_GRACE_MS, false);
  }

  /** Once no processor call is running (one may start just after the close began, from a job already fetched). */
  private async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all(this.inFlight);
  }

  /**
   * Every job is removed when it fails (FINISHED_JOBS), so without this line a processor that throws
   * leaves no trace anywhere, and the relay or sweeper queues it again, failing the same way for good.
   * Logged at most once a minute per error message, as the errors are: a broken payload or a database
   * outage fails every job alike, and the counter has the number.
   */
  private reportFailure(job: Job | undefined, error: Error): void {
    if (RESCHEDULES.has(error.name)) return;
    this.failures++;
    const which = job ? `job ${job.name} ${job.id} failed (attempts made: ${job.attemptsMade})` : 'a job failed';
    bullErrorLog.report(`worker ${this.name}: ${which}`, error);
  }
}

