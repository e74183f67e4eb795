import { Inject, Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';

/**
 * The drain at shutdown (SHUTDOWN_DRAIN_MS): a load balancer or Kubernetes takes a few seconds to stop
 * sending to a process that got SIGTERM, and a process that stopped taking connections at once refused
 * those in the meantime. For that long the process goes on serving every request, while /readyz answers
 * 503 (health.controller.ts), so that checks take it out; then the shutdown goes on (the port closes,
 * requests in flight finish). Nest runs this before any connection closes (beforeApplicationShutdown).
 * A jobs process serves no requests (its listener closes at the signal): it does not wait.
 */
@Injectable()
export class ShutdownDrain implements BeforeApplicationShutdown {
  private readonly logger = new Logger(ShutdownDrain.name);
  private started = false;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** Whether the shutdown has begun and the process is draining (or past it). */
  get draining(): boolean {
    return this.started;
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.started = true;
    const ms = this.config.SHUTDOWN_DRAIN_MS;
    if (ms === 0 || this.config.role === 'jobs') return;
    this.logger.log(`draining for ${ms} ms: /readyz answers 503, requests are still served`);
    await sleep(ms);
  }
}
