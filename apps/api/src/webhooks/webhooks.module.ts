import { Global, Module, type DynamicModule, type Provider } from '@nestjs/common';
import type { AppRole } from '../config/config.schema';
import { EventRetention } from './event-retention';
import { OutboxRelay } from './outbox-relay';
import { WebhookChallengeProcessor } from './webhook-challenge.processor';
import { WebhookDeliveryProcessor } from './webhook-delivery.processor';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { WebhookJobs } from './webhook-jobs';
import { webhookSenderProvider } from './webhook-sender.provider';
import { WebhooksConsoleController } from './webhooks.console.controller';
import { WebhooksConsoleService } from './webhooks-console.service';

/**
 * Webhooks (API.md §2): address registration and the outbox producers everywhere; the HTTP sender,
 * the delivery and challenge workers, the relay and the log's retention only in processes that run jobs.
 */
@Global()
@Module({})
export class WebhooksModule {
  static register(role: AppRole): DynamicModule {
    const jobs: Provider[] = role === 'http' ? [] : [webhookSenderProvider, WebhookDeliveryProcessor, WebhookChallengeProcessor, OutboxRelay, EventRetention];
    return {
      module: WebhooksModule,
      controllers: [WebhooksConsoleController],
      providers: [WebhookJobs, WebhookEndpointsService, WebhooksConsoleService, ...jobs],
      exports: [WebhookJobs, WebhookEndpointsService, WebhooksConsoleService],
    };
  }
}
