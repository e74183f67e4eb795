import type { DataBody, WebhookEventResponse, WebhookSettingsResponse } from '@crowdbox/contracts';
import { Controller, Get, HttpCode, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { SessionGuard } from '../auth/session.guard';
import { IdParam } from '../common/http/id-param';
import { CurrentSession, type SessionPrincipal } from '../common/http/principal';
import { WebhooksConsoleService } from './webhooks-console.service';

@ApiTags('console')
@ApiBearerAuth()
@UseGuards(SessionGuard)
@Controller('api/console/webhooks')
export class WebhooksConsoleController {
  constructor(private readonly webhooks: WebhooksConsoleService) {}

  @Get()
  async settings(@CurrentSession() session: SessionPrincipal): Promise<DataBody<WebhookSettingsResponse>> {
    return { data: await this.webhooks.settings(session.accountId) };
  }

  /** A new signing secret; the old one keeps signing beside it for a day (docs/webhooks.md §3). */
  @Post('signing-secret/rotate')
  @HttpCode(200)
  async rotateSigningSecret(@CurrentSession() session: SessionPrincipal): Promise<DataBody<WebhookSettingsResponse>> {
    return { data: await this.webhooks.rotateSigningSecret(session.accountId) };
  }

  @Get('events')
  async events(
    @CurrentSession() session: SessionPrincipal,
    @Query('state') state?: string,
    @Query('before') before?: string,
  ): Promise<DataBody<WebhookEventResponse[]>> {
    return { data: await this.webhooks.events(session.accountId, { state, before }) };
  }

  /** Every failed event again (10,000 a call at most; `more` when failed events are left). */
  @Post('events/redeliver-failed')
  @HttpCode(202)
  async redeliverFailed(@CurrentSession() session: SessionPrincipal): Promise<DataBody<{ redelivered: number; more: boolean }>> {
    return { data: await this.webhooks.redeliverFailed(session.accountId) };
  }

  @Post('events/:id/redeliver')
  @HttpCode(202)
  async redeliver(@CurrentSession() session: SessionPrincipal, @IdParam('id') id: string): Promise<DataBody<{ id: string; state: string }>> {
    return { data: await this.webhooks.redeliver(session.accountId, id) };
  }
}
