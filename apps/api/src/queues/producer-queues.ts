import { QUEUES, type CheckoutExpiryJob, type WebhookChallengeJob, type WebhookDeliveryJob } from '@crowdbox/contracts';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { Queue } from 'bullmq';
import { APP_CONFIG } from '../config/config.module';
import { bullErrorLog } from './bull-error-log';
import type { AppConfig } from '../config/config.schema';
import { bullPrefix, type RedisClient } from '../redis/redis-client';
import { REDIS } from '../redis/redis.module';

/**
 * A finished job is removed, completed or failed: every job's outcome is in PostgreSQL (the lease's state,
 * the event's attempt log), and kept jobs would grow Redis by ~1 KB each for good, until `noeviction`
 * refuses writes. A job that fails is taken up again from the database (the sweeper, the outbox relay).
 */
export const FINISHED_JOBS = { removeOnComplete: true, removeOnFail: true } as const;

/**
 * The queues that requests put jobs on and take them off, on the app's shared Redis client
 * (RedisModule) rather than on connections of their own. That client is auto-pipelined, so the
 * expiry jobs of the leases whose grace is over, their removals, the webhook enqueues and the
 * rate-limit tokens of one turn of the event loop leave in one write: on a VM each socket write costs
 * more CPU than the command it carries (docs/performance.md, "Redis writes of one turn in one").
 * The client has no offline queue, so an add fails at once while Redis is away, which is what every
 * producer here wants: the sweeper and the outbox relay catch up from the database.
 *
 * Workers never use these: BullMQ's workers block on connections of their own, and auto-pipelining
 * a worker's connection is reported to break its job locks (taskforcesh/bullmq#457).
 */
@Injectable()
export class ProducerQueues implements OnApplicationShutdown {
  readonly checkoutExpiry: Queue<CheckoutExpiryJob>;
  readonly webhookDelivery: Queue<WebhookDeliveryJob>;
  readonly webhookChallenge: Queue<WebhookChallengeJob>;

  constructor(@Inject(REDIS) private readonly redis: RedisClient, @Inject(APP_CONFIG) config: AppConfig) {
    // No version check: it is one INFO after the client's first 'ready', and were Redis to drop in that
    // instant, the rejection would stay in the queue for good (BullMQ does not retry its init), failing
    // every later add. The workers' own connections check the version.
    const options = { connection: redis, prefix: bullPrefix(config), skipVersionCheck: true, defaultJobOptions: FINISHED_JOBS };
    this.checkoutExpiry = new Queue(QUEUES.checkoutExpiry, options);
    this.webhookDelivery = new Queue(QUEUES.webhookDelivery, options);
    this.webhookChallenge = new Queue(QUEUES.webhookChallenge, options);
    for (const queue of this.all()) queue.on('error', (error) => this.reportError(queue.name, error));
  }

  /**
   * Why an add or a removal should be skipped now, or undefined when it can go. Until the shared client
   * is ready, a queue holds what it is given in memory; the callers leave that work to the sweep and the
   * outbox relay instead.
   */
  notReady(): string | undefined {
    return this.redis.status === 'ready' ? undefined : `redis is ${this.redis.status}`;
  }

  /** Closing a queue on a shared client leaves the client to RedisModule. */
  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.all().map((queue) => queue.close()));
  }

  private all(): Queue[] {
    return [this.checkoutExpiry, this.webhookDelivery, this.webhookChallenge];
  }

  /**
   * A queue re-emits its client's errors, and BullMQ prints them when nobody listens. A lost connection
   * is the shared client's to retry and /health's to report, as ioredis itself keeps quiet about it;
   * anything else is worth a line (at most one a minute per message).
   */
  private reportError(queue: string, error: Error & { syscall?: string }): void {
    if (error.syscall === 'connect' || error.syscall === 'read' || error.message === 'Connection is closed.') return;
    bullErrorLog.report(`queue ${queue}`, error);
  }
}
