import { QUEUES, type CheckoutExpiryJob } from '@crowdbox/contracts';
import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Job } from 'bullmq';
import { DataSource } from 'typeorm';
import { OnePass } from '../common/one-pass';
import { expireLeases } from './lease-expiry';

const SWEEP_EVERY_MS = 30_000;

/**
 * The `checkout-expiry` worker (roles jobs and all). Idempotent: a lease already submitted, released
 * or expired is "skipped". A sweep every 30 s expires whatever a lost job left behind.
 */
@Processor(QUEUES.checkoutExpiry)
export class CheckoutExpiryProcessor extends WorkerHost implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(CheckoutExpiryProcessor.name);
  private sweeper?: NodeJS.Timeout;
  private readonly sweeps = new OnePass();

  constructor(@InjectDataSource() private readonly db: DataSource) {
    super();
  }

  async process(job: Job<CheckoutExpiryJob>): Promise<'expired' | 'skipped'> {
    const expired = await expireLeases(this.db, job.data.checkoutId);
    return expired.length > 0 ? 'expired' : 'skipped';
  }

  onApplicationBootstrap(): void {
    this.sweeper = setInterval(() => void this.sweeps.run(() => this.sweep()), SWEEP_EVERY_MS);
    this.sweeper.unref();
  }

  /** Before the shutdown hooks, which close the pool (TypeORM's) ahead of this module's: no sweep on an ended pool. */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    await this.sweeps.stop();
  }

  /** Expires whatever leases a lost job left behind; how many. */
  private async sweep(): Promise<number> {
    try {
      const ids = await expireLeases(this.db);
      if (ids.length > 0) this.logger.log(`sweeper expired ${ids.length} leases`);
      return ids.length;
    } catch (error) {
      this.logger.warn(`lease sweep failed: ${(error as Error).message}`);
      return 0;
    }
  }
}
