import type { DataBody, ProjectResponse } from '@crowdbox/contracts';
import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ref } from '../bootstrap/openapi-schemas';
import { ApiData, ApiErrors, ApiKeyAuth, ApiUuidParam, TAGS } from '../common/http/api-docs';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { ApiException } from '../common/errors/api.exception';
import { isUuid } from '../common/crypto.util';
import { IdParam } from '../common/http/id-param';
import { CurrentApiKey, type ApiKeyPrincipal } from '../common/http/principal';
import { TestModeService } from '../test-mode/test-mode.service';
import { ProjectsService } from './projects.service';

@ApiTags(TAGS.requester)
@ApiKeyAuth()
@UseGuards(ApiKeyGuard)
@Controller('api/v1/projects')
export class ProjectsV1Controller {
  constructor(
    private readonly projects: ProjectsService,
    private readonly testMode: TestModeService,
  ) {}

  @Get(':uuid')
  @ApiOperation({ summary: 'Get a project', description: 'A project of the key\'s account, with its task counts and payments.' })
  @ApiUuidParam('uuid', 'the project')
  @ApiData(200, ref('Project'))
  @ApiErrors([401, 422, 429], { 422: 'Field `root`, `project not found`: no such project, or another account\'s (the seed spec\'s 422).' })
  async get(@CurrentApiKey() key: ApiKeyPrincipal, @IdParam('uuid') uuid: string): Promise<DataBody<ProjectResponse>> {
    // A malformed id is "not found" for test keys too, as for the other test-key reads.
    if (!isUuid(uuid)) throw ApiException.unprocessable('root', 'project not found');
    if (key.mode === 'test') return { data: this.testMode.project(key, uuid) };
    return { data: await this.projects.requesterProject(key.accountId, uuid) };
  }
}
