import type { DataBody, PingResponse } from '@crowdbox/contracts';
import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentApiKey, type ApiKeyPrincipal } from '../common/http/principal';
import { ApiKeyGuard } from './api-key.guard';

@ApiTags('requester')
@ApiSecurity('apikey')
@UseGuards(ApiKeyGuard)
@Controller('api/v1')
export class PingController {
  /** Lets a requester check its key and whether it is a live or a test key. */
  @Get('ping')
  ping(@CurrentApiKey() key: ApiKeyPrincipal): DataBody<PingResponse> {
    return { data: { ok: true, mode: key.mode, valid: true, production_key: key.mode === 'live' } };
  }
}
