import type { Provider } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { WebhookSender } from './webhook-sender';

/** One HTTP client (and connection pool) per process for every webhook request. */
export const webhookSenderProvider: Provider = {
  provide: WebhookSender,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig) =>
    new WebhookSender({
      connectTimeoutMs: config.WEBHOOK_CONNECT_TIMEOUT_MS,
      totalTimeoutMs: config.WEBHOOK_TIMEOUT_MS,
      allowPrivateNetworks: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
      perReceiver: config.WEBHOOK_RECEIVER_CONCURRENCY,
    }),
};
