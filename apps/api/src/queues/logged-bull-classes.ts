import { Queue, Worker } from 'bullmq';
import { bullErrorLog } from './bull-error-log';

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
  constructor(...args: ConstructorParameters<typeof Worker>) {
    super(...args);
    bullErrorLog.watch(this, `worker ${this.name}`);
  }
}
