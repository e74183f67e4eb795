import { Controller, Get, Headers, Inject, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, SECURITY, TAGS } from '../common/http/api-docs';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { assertMetricsAccess } from './metrics-access';
import { MetricsService } from './metrics.service';

/**
 * GET /metrics, Prometheus's text format. Off (404) unless METRICS_TOKEN is set, and then only for
 * `Authorization: Bearer <METRICS_TOKEN>` (metrics-access.ts): this port is the public API's.
 */
@ApiTags(TAGS.health)
@ApiBearerAuth(SECURITY.metrics)
@Controller()
export class MetricsController {
  constructor(
    private readonly metrics: MetricsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('metrics')
  @ApiOperation({ summary: 'Prometheus metrics', description: 'Off (404) unless `METRICS_TOKEN` is set; then only with `Authorization: Bearer <METRICS_TOKEN>`.' })
  @ApiOkResponse({ description: 'Prometheus text format.', content: { 'text/plain': { schema: { type: 'string' } } } })
  @ApiErrors([401, 404], { 401: 'Field `authorization`: no token, or not `METRICS_TOKEN`.', 404: 'Metrics are off: `METRICS_TOKEN` is not set.' })
  async scrape(@Headers('authorization') authorization: string | undefined, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    assertMetricsAccess(this.config.METRICS_TOKEN, authorization);
    const { body, contentType } = await this.metrics.scrape();
    void reply.header('content-type', contentType);
    return body;
  }
}
