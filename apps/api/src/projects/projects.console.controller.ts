import type { ConsoleProjectResponse, DataBody } from '@crowdbox/contracts';
import { Body, Controller, Get, HttpCode, Patch, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { SessionGuard } from '../auth/session.guard';
import { IdParam } from '../common/http/id-param';
import { CurrentSession, type SessionPrincipal } from '../common/http/principal';
import { CreateProjectDto, UpdateProjectDto } from './dto/project.dto';
import type { CancelResult } from './cancel-outstanding';
import { ProjectsService } from './projects.service';

@ApiTags('console')
@ApiBearerAuth()
@UseGuards(SessionGuard)
@Controller('api/console/projects')
export class ProjectsConsoleController {
  constructor(private readonly projects: ProjectsService) {}

  @Get()
  async list(@CurrentSession() session: SessionPrincipal): Promise<DataBody<ConsoleProjectResponse[]>> {
    return { data: await this.projects.list(session.accountId) };
  }

  @Post()
  async create(@CurrentSession() session: SessionPrincipal, @Body() body: CreateProjectDto): Promise<DataBody<ConsoleProjectResponse>> {
    return { data: await this.projects.create(session.accountId, body) };
  }

  @Get(':uuid')
  async get(@CurrentSession() session: SessionPrincipal, @IdParam('uuid') uuid: string): Promise<DataBody<ConsoleProjectResponse>> {
    return { data: await this.projects.consoleProject(session.accountId, uuid) };
  }

  @Patch(':uuid')
  async update(
    @CurrentSession() session: SessionPrincipal,
    @IdParam('uuid') uuid: string,
    @Body() body: UpdateProjectDto,
  ): Promise<DataBody<ConsoleProjectResponse>> {
    return { data: await this.projects.update(session.accountId, uuid, body) };
  }

  /** Ends every incomplete task and its active leases; what was submitted stays readable. */
  @Post(':uuid/cancel_outstanding')
  @HttpCode(200)
  async cancelOutstanding(@CurrentSession() session: SessionPrincipal, @IdParam('uuid') uuid: string): Promise<DataBody<CancelResult>> {
    return { data: await this.projects.cancelOutstanding(session.accountId, uuid) };
  }

  /** Sets archived_at and cancels the outstanding tasks, in one transaction; an archived project is answered as it is. */
  @Post(':uuid/archive')
  @HttpCode(200)
  async archive(@CurrentSession() session: SessionPrincipal, @IdParam('uuid') uuid: string): Promise<DataBody<ConsoleProjectResponse>> {
    return { data: await this.projects.archive(session.accountId, uuid) };
  }

  /** Clears archived_at: the project takes tasks again; those the archive cancelled stay cancelled. */
  @Post(':uuid/unarchive')
  @HttpCode(200)
  async unarchive(@CurrentSession() session: SessionPrincipal, @IdParam('uuid') uuid: string): Promise<DataBody<ConsoleProjectResponse>> {
    return { data: await this.projects.unarchive(session.accountId, uuid) };
  }
}
