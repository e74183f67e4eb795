import { QUEUES } from '@crowdbox/contracts';
import { WorkerHost } from '@nestjs/bullmq';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { Counter, type Registry } from 'prom-client';
import { LoggedWorker } from '../queues/logged-bull-classes';
import { METRICS_REGISTRY } from './metrics-registry';

/**
 * `crowdbox_queue_job_failures_total{queue}`: jobs whose processor threw, in this process (docs/running.md,
 * "Metrics"). BullMQ's workers are built by @nestjs/bullmq outside DI and count their own failures
 * (LoggedWorker#failures); this renders the tallies of this app's workers, found through their
 * processors, at each scrape. Every queue starts at 0, in processes without workers too, so a rate()
 * has a series from the first scrape.
 */
@Injectable()
export class QueueMetrics implements OnApplicationBootstrap {
  private workers: LoggedWorker[] = [];

  constructor(
    @Inject(METRICS_REGISTRY) registry: Registry,
    private readonly discovery: DiscoveryService,
  ) {
    const workers = () => this.workers;
    new Counter({
      name: 'crowdbox_queue_job_failures_total',
      help: 'BullMQ jobs of this process whose processor threw (logged by the BullMQ logger, then removed), by queue; a retry or deferral is not one',
      labelNames: ['queue'],
      registers: [registry],
      collect() {
        this.reset();
        for (const queue of Object.values(QUEUES)) this.inc({ queue }, 0);
        for (const worker of workers()) this.inc({ queue: worker.name }, worker.failures);
      },
    });
  }

  /** The processors' workers exist by now: @nestjs/bullmq builds them in its onModuleInit. */
  onApplicationBootstrap(): void {
    this.workers = this.discovery
      .getProviders()
      .flatMap(({ instance }) => (instance instanceof WorkerHost && instance.worker instanceof LoggedWorker ? [instance.worker] : []));
  }
}
