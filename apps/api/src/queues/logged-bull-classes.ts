import { Queue, Worker, type Job } from 'bullmq';
import { bullErrorLog } from './bull-error-log';

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

  constructor(...args: ConstructorParameters<typeof Worker>) {
    super(...args);
    bullErrorLog.watch(this, `worker ${this.name}`);
    this.on('failed', (job, error) => this.reportFailure(job, error));
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
