import type { DataBody, ProjectWorkersResponse } from '@crowdbox/contracts';
import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { SessionGuard } from '../auth/session.guard';
import { ref } from '../bootstrap/openapi-schemas';
import { ApiData, ApiErrors, ApiSessionAuth, ApiUuidParam, TAGS } from '../common/http/api-docs';
import { IdParam } from '../common/http/id-param';
import { CurrentSession, type SessionPrincipal } from '../common/http/principal';
import { ProjectWorkersService } from './project-workers.service';

@ApiTags(TAGS.workers)
@ApiSessionAuth()
@UseGuards(SessionGuard)
@Controller('api/console/projects')
export class ProjectWorkersController {
  constructor(private readonly workers: ProjectWorkersService) {}

  @Get(':uuid/workers')
  @ApiOperation({
    summary: "List a project's workers with their agreement",
    description:
      "Each worker of the project's latest completed tasks (1,000 at most): submissions, and how their boxes match the consensus of the other workers of the same tasks. Lowest agreement first.",
  })
  @ApiUuidParam('uuid', 'the project')
  @ApiData(200, ref('ProjectWorkers'))
  @ApiErrors([401, 404, 429])
  async list(@CurrentSession() session: SessionPrincipal, @IdParam('uuid') uuid: string): Promise<DataBody<ProjectWorkersResponse>> {
    return { data: await this.workers.workers(session.accountId, uuid) };
  }
}
