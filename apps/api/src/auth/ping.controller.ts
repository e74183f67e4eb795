import type { DataBody, PingResponse } from '@crowdbox/contracts';
import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiData, ApiErrors, ApiKeyAuth, TAGS } from '../common/http/api-docs';
import { ref } from '../bootstrap/openapi-schemas';
import { CurrentApiKey, type ApiKeyPrincipal } from '../common/http/principal';
import { ApiKeyGuard } from './api-key.guard';

@ApiTags(TAGS.requester)
@ApiKeyAuth()
@ApiErrors([401, 429])
@UseGuards(ApiKeyGuard)
@Controller('api/v1')
export class PingController {
  /** Lets a requester check its key and whether it is a live or a test key. */
  @Get('ping')
  @ApiOperation({ summary: 'Check an API key', description: 'Whether the key is valid, and whether it is a live or a test key.' })
  @ApiData(200, ref('Ping'))
  ping(@CurrentApiKey() key: ApiKeyPrincipal): DataBody<PingResponse> {
    return { data: { ok: true, mode: key.mode, valid: true, production_key: key.mode === 'live' } };
  }
}
