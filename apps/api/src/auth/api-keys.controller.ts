import type { ApiKeyResponse, CreatedApiKeyResponse, DataBody } from '@crowdbox/contracts';
import { Body, Controller, Delete, Get, Post, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ref } from '../bootstrap/openapi-schemas';
import { ApiData, ApiErrors, ApiSessionAuth, ApiUuidParam, BODY_ERRORS, TAGS } from '../common/http/api-docs';
import { ApiException } from '../common/errors/api.exception';
import { isUuid } from '../common/crypto.util';
import { IdParam } from '../common/http/id-param';
import { CurrentSession, type SessionPrincipal } from '../common/http/principal';
import { ApiKeysService } from './api-keys.service';
import { CreateApiKeyDto } from './dto/api-key.dto';
import { SessionGuard } from './session.guard';

@ApiTags(TAGS.apiKeys)
@ApiSessionAuth()
@UseGuards(SessionGuard)
@Controller('api/console/api_keys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Get()
  @ApiOperation({ summary: 'List API keys', description: 'The account\'s keys, revoked ones too; never their secrets.' })
  @ApiData(200, { type: 'array', items: ref('ApiKey') })
  @ApiErrors([401, 429])
  async list(@CurrentSession() session: SessionPrincipal): Promise<DataBody<ApiKeyResponse[]>> {
    return { data: await this.keys.list(session.accountId) };
  }

  @Post()
  @ApiOperation({ summary: 'Create an API key', description: '`secret` is in this answer only.' })
  @ApiData(201, ref('CreatedApiKey'))
  @ApiErrors([...BODY_ERRORS, 401, 403, 415, 422, 429], { 422: '`mode` is not `live` or `test`, or the account has as many active keys as it may.' })
  async create(@CurrentSession() session: SessionPrincipal, @Body() body: CreateApiKeyDto): Promise<DataBody<CreatedApiKeyResponse>> {
    return { data: await this.keys.create(session.accountId, body.mode) };
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Revoke an API key', description: 'The key stops working at once; a revoked key is answered as it is.' })
  @ApiUuidParam('id', 'the key')
  @ApiData(200, ref('ApiKey'))
  @ApiErrors([401, 403, 404, 429])
  async revoke(@CurrentSession() session: SessionPrincipal, @IdParam('id') id: string): Promise<DataBody<ApiKeyResponse>> {
    if (!isUuid(id)) throw ApiException.notFound('api key not found');
    return { data: await this.keys.revoke(session.accountId, id) };
  }
}
