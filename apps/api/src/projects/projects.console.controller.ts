import type { ConsoleProjectResponse, ConsoleProjectsPage, DataBody } from '@crowdbox/contracts';
import { Body, Controller, Get, Headers, HttpCode, Patch, Post, Query, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ref } from '../bootstrap/openapi-schemas';
import { ApiData, ApiErrors, ApiIdempotencyKey, ApiPageQuery, ApiSessionAuth, ApiUuidParam, BODY_ERRORS, TAGS } from '../common/http/api-docs';
import { SessionGuard } from '../auth/session.guard';
import { IdParam } from '../common/http/id-param';
import { CurrentSession, type SessionPrincipal } from '../common/http/principal';
import { ConsoleProjectListQueryDto, CreateProjectDto, UpdateProjectDto } from './dto/project.dto';
import type { CancelResult } from './cancel-outstanding';
import { ProjectsService } from './projects.service';
import { validateIdempotencyKey } from '../tasks/idempotency';

@ApiTags(TAGS.projects)
@ApiSessionAuth()
@UseGuards(SessionGuard)
@Controller('api/console/projects')
export class ProjectsConsoleController {
  constructor(private readonly projects: ProjectsService) {}

  @Get()
  @ApiOperation({
    summary: 'List projects',
    description: "A page of the account's projects, newest first (`archived=true` the archived ones, `archived=false` those in use, neither both), with how many it has in use and archived.",
  })
  @ApiQuery({ name: 'archived', required: false, enum: ['true', 'false'], description: 'only the archived projects, or only those in use' })
  @ApiPageQuery()
  @ApiOkResponse({ description: 'A page.', schema: ref('ConsoleProjectsPage') })
  @ApiErrors([401, 422, 429], { 422: '`archived`, `before` or `limit` is not one of its values.' })
  async list(@CurrentSession() session: SessionPrincipal, @Query() query: ConsoleProjectListQueryDto): Promise<ConsoleProjectsPage> {
    return this.projects.page(session.accountId, query);
  }

  @Post()
  @ApiOperation({ summary: 'Create a project', description: 'The template\'s `[[variables]]` are read from it; labels must be unique.' })
  @ApiData(201, ref('ConsoleProject'))
  @ApiIdempotencyKey()
  @ApiErrors([...BODY_ERRORS, 401, 403, 415, 422, 429])
  async create(
    @CurrentSession() session: SessionPrincipal,
    @Body() body: CreateProjectDto,
    @Headers('idempotency-key') idempotencyKey?: string,
  ): Promise<DataBody<ConsoleProjectResponse>> {
    return { data: await this.projects.create(session.accountId, body, validateIdempotencyKey(idempotencyKey)) };
  }

  @Get(':uuid')
  @ApiOperation({ summary: 'Get a project', description: 'The project with its configuration and counts.' })
  @ApiUuidParam('uuid', 'the project')
  @ApiData(200, ref('ConsoleProject'))
  @ApiErrors([401, 404, 429])
  async get(@CurrentSession() session: SessionPrincipal, @IdParam('uuid') uuid: string): Promise<DataBody<ConsoleProjectResponse>> {
    return { data: await this.projects.consoleProject(session.accountId, uuid) };
  }

  @Patch(':uuid')
  @ApiOperation({
    summary: 'Change a project',
    description: 'Only the fields given change. With `expected_updated_at`, a project saved since that version is left as it is (409).',
  })
  @ApiUuidParam('uuid', 'the project')
  @ApiData(200, ref('ConsoleProject'))
  @ApiErrors([...BODY_ERRORS, 401, 403, 404, 409, 415, 422, 429], { 409: 'Field `expected_updated_at`: the project was changed after that version; read it again.' })
  async update(
    @CurrentSession() session: SessionPrincipal,
    @IdParam('uuid') uuid: string,
    @Body() body: UpdateProjectDto,
  ): Promise<DataBody<ConsoleProjectResponse>> {
    return { data: await this.projects.update(session.accountId, uuid, body) };
  }

  /** Ends every incomplete task and its active leases; what was submitted stays readable. */
  @Post(':uuid/cancel_outstanding')
  @ApiOperation({ summary: 'Cancel the outstanding tasks', description: 'Every incomplete task leaves the workers\' queue and its active leases end; what was submitted stays readable.' })
  @ApiUuidParam('uuid', 'the project')
  @ApiData(200, ref('CancelOutstandingResult'))
  @ApiErrors([401, 403, 404, 429])
  @HttpCode(200)
  async cancelOutstanding(@CurrentSession() session: SessionPrincipal, @IdParam('uuid') uuid: string): Promise<DataBody<CancelResult>> {
    return { data: await this.projects.cancelOutstanding(session.accountId, uuid) };
  }

  /** Sets archived_at and cancels the outstanding tasks, in one transaction; an archived project is answered as it is. */
  @Post(':uuid/archive')
  @ApiOperation({ summary: 'Archive a project', description: 'Sets `archived_at` and cancels the outstanding tasks; an archived project is answered as it is.' })
  @ApiUuidParam('uuid', 'the project')
  @ApiData(200, ref('ConsoleProject'))
  @ApiErrors([401, 403, 404, 429])
  @HttpCode(200)
  async archive(@CurrentSession() session: SessionPrincipal, @IdParam('uuid') uuid: string): Promise<DataBody<ConsoleProjectResponse>> {
    return { data: await this.projects.archive(session.accountId, uuid) };
  }

  /** Clears archived_at: the project takes tasks again; those the archive cancelled stay cancelled. */
  @Post(':uuid/unarchive')
  @ApiOperation({ summary: 'Unarchive a project', description: 'The project takes tasks again; those the archive cancelled stay cancelled.' })
  @ApiUuidParam('uuid', 'the project')
  @ApiData(200, ref('ConsoleProject'))
  @ApiErrors([401, 403, 404, 429])
  @HttpCode(200)
  async unarchive(@CurrentSession() session: SessionPrincipal, @IdParam('uuid') uuid: string): Promise<DataBody<ConsoleProjectResponse>> {
    return { data: await this.projects.unarchive(session.accountId, uuid) };
  }
}
