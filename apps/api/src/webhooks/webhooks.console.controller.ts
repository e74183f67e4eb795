import type { DataBody, WebhookEventResponse, WebhookSettingsResponse } from '@crowdbox/contracts';
import { Controller, Get, HttpCode, Post, Query, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ref } from '../bootstrap/openapi-schemas';
import { ApiData, ApiErrors, ApiSessionAuth, ApiUuidParam, TAGS } from '../common/http/api-docs';
import { SessionGuard } from '../auth/session.guard';
import { IdParam } from '../common/http/id-param';
import { CurrentSession, type SessionPrincipal } from '../common/http/principal';
import { WebhooksConsoleService } from './webhooks-console.service';

@ApiTags(TAGS.webhooks)
@ApiSessionAuth()
@UseGuards(SessionGuard)
@Controller('api/console/webhooks')
export class WebhooksConsoleController {
  constructor(private readonly webhooks: WebhooksConsoleService) {}

  @Get()
  @ApiOperation({ summary: 'Webhook settings', description: 'The signing secret and every callback address the account\'s tasks named, with its confirmation state.' })
  @ApiData(200, ref('WebhookSettings'))
  @ApiErrors([401, 429])
  async settings(@CurrentSession() session: SessionPrincipal): Promise<DataBody<WebhookSettingsResponse>> {
    return { data: await this.webhooks.settings(session.accountId) };
  }

  /** A new signing secret; the old one keeps signing beside it for a day (docs/webhooks.md §3). */
  @Post('signing-secret/rotate')
  @ApiOperation({ summary: 'Rotate the signing secret', description: 'A new secret; the old one keeps signing beside it for a day (two signatures per delivery).' })
  @ApiData(200, ref('WebhookSettings'))
  @ApiErrors([401, 403, 429])
  @HttpCode(200)
  async rotateSigningSecret(@CurrentSession() session: SessionPrincipal): Promise<DataBody<WebhookSettingsResponse>> {
    return { data: await this.webhooks.rotateSigningSecret(session.accountId) };
  }

  @Get('events')
  @ApiOperation({ summary: 'The webhook event log', description: 'Newest first, 50 a page, with every delivery attempt.' })
  @ApiQuery({ name: 'state', required: false, enum: ['pending', 'delivered', 'failed'], description: 'only events in this state' })
  @ApiQuery({
    name: 'before',
    required: false,
    schema: { type: 'string' },
    description: 'the id of the previous page\'s last event (the next page), or an ISO 8601 time (events created before it)',
  })
  @ApiData(200, { type: 'array', items: ref('WebhookEvent') })
  @ApiErrors([401, 422, 429], { 422: '`state` or `before` is not one of the values it may be.' })
  async events(
    @CurrentSession() session: SessionPrincipal,
    @Query('state') state?: string,
    @Query('before') before?: string,
  ): Promise<DataBody<WebhookEventResponse[]>> {
    return { data: await this.webhooks.events(session.accountId, { state, before }) };
  }

  /** Every failed event again (10,000 a call at most; `more` when failed events are left). */
  @Post('events/redeliver-failed')
  @ApiOperation({ summary: 'Redeliver every failed event', description: 'At most 10,000 a call; `more` is true when failed events are left.' })
  @ApiData(202, ref('Redelivered'))
  @ApiErrors([401, 403, 429])
  @HttpCode(202)
  async redeliverFailed(@CurrentSession() session: SessionPrincipal): Promise<DataBody<{ redelivered: number; more: boolean }>> {
    return { data: await this.webhooks.redeliverFailed(session.accountId) };
  }

  @Post('events/:id/redeliver')
  @ApiOperation({ summary: 'Redeliver one event', description: 'Whatever its state: a fresh schedule of attempts (the log keeps the old ones).' })
  @ApiUuidParam('id', 'the event')
  @ApiData(202, ref('RedeliveredEvent'))
  @ApiErrors([401, 403, 404, 429])
  @HttpCode(202)
  async redeliver(@CurrentSession() session: SessionPrincipal, @IdParam('id') id: string): Promise<DataBody<{ id: string; state: string }>> {
    return { data: await this.webhooks.redeliver(session.accountId, id) };
  }
}
