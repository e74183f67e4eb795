import type { ApiKeyResponse, CreatedApiKeyResponse, DataBody } from '@crowdbox/contracts';
import { Body, Controller, Delete, Get, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { ApiException } from '../common/errors/api.exception';
import { isUuid } from '../common/crypto.util';
import { IdParam } from '../common/http/id-param';
import { CurrentSession, type SessionPrincipal } from '../common/http/principal';
import { ApiKeysService } from './api-keys.service';
import { CreateApiKeyDto } from './dto/api-key.dto';
import { SessionGuard } from './session.guard';

@ApiTags('console')
@ApiBearerAuth()
@UseGuards(SessionGuard)
@Controller('api/console/api_keys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Get()
  async list(@CurrentSession() session: SessionPrincipal): Promise<DataBody<ApiKeyResponse[]>> {
    return { data: await this.keys.list(session.accountId) };
  }

  @Post()
  async create(@CurrentSession() session: SessionPrincipal, @Body() body: CreateApiKeyDto): Promise<DataBody<CreatedApiKeyResponse>> {
    return { data: await this.keys.create(session.accountId, body.mode) };
  }

  @Delete(':id')
  async revoke(@CurrentSession() session: SessionPrincipal, @IdParam('id') id: string): Promise<DataBody<ApiKeyResponse>> {
    if (!isUuid(id)) throw ApiException.notFound('api key not found');
    return { data: await this.keys.revoke(session.accountId, id) };
  }
}
