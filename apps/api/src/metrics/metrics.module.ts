import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { HttpMetrics } from './http-metrics';
import { MetricsController } from './metrics.controller';
import { metricsRegistryProvider } from './metrics-registry';
import { MetricsService } from './metrics.service';
import { QueueMetrics } from './queue-metrics';
import { WebhookMetrics } from './webhook-metrics';

/**
 * GET /metrics and the instruments it renders. Global: the instruments are counted where things happen
 * (create-app.ts's request hook, the webhook processors), outside this module.
 */
@Global()
@Module({
  imports: [DiscoveryModule],
  controllers: [MetricsController],
  providers: [metricsRegistryProvider, MetricsService, HttpMetrics, WebhookMetrics, QueueMetrics],
  exports: [MetricsService, HttpMetrics, WebhookMetrics],
})
export class MetricsModule {}
