import { Global, Module } from '@nestjs/common';
import { HttpMetrics } from './http-metrics';
import { MetricsController } from './metrics.controller';
import { metricsRegistryProvider } from './metrics-registry';
import { MetricsService } from './metrics.service';
import { WebhookMetrics } from './webhook-metrics';

/**
 * GET /metrics and the instruments it renders. Global: the instruments are counted where things happen
 * (create-app.ts's request hook, the webhook processors), outside this module.
 */
@Global()
@Module({
  controllers: [MetricsController],
  providers: [metricsRegistryProvider, MetricsService, HttpMetrics, WebhookMetrics],
  exports: [MetricsService, HttpMetrics, WebhookMetrics],
})
export class MetricsModule {}
