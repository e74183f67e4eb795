import { Controller, Get, Headers, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { ApiException } from '../common/errors/api.exception';
import { sha256Hex } from '../common/crypto.util';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { MetricsService } from './metrics.service';

/**
 * GET /metrics, Prometheus's text format. Off (404) unless METRICS_TOKEN is set, and then only for
 * `Authorization: Bearer <METRICS_TOKEN>`: the figures say how busy the service is and are nobody
 * else's business, and this port is the public API's.
 */
@ApiExcludeController()
@Controller()
export class MetricsController {
  constructor(
    private readonly metrics: MetricsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('metrics')
  async scrape(@Headers('authorization') authorization: string | undefined, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const token = this.config.METRICS_TOKEN;
    if (!token) throw ApiException.notFound('metrics are off: set METRICS_TOKEN to serve them');
    if (!sameSecret(authorization ?? '', `Bearer ${token}`)) {
      throw ApiException.of(401, 'authorization', 'send Authorization: Bearer <METRICS_TOKEN>', { 'www-authenticate': 'Bearer' });
    }
    const { body, contentType } = await this.metrics.scrape();
    void reply.header('content-type', contentType);
    return body;
  }
}

/** Compares digests, so neither the length nor the first difference shows in the time taken. */
function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(Buffer.from(sha256Hex(given), 'hex'), Buffer.from(sha256Hex(expected), 'hex'));
}
