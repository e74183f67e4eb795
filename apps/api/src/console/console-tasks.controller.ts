import type { CancelOutstandingResult, ConsoleTaskDetail, ConsoleTaskRow, DataBody, ProjectProgress } from '@crowdbox/contracts';
import { Controller, Get, HttpCode, Post, Query, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';
import { SessionGuard } from '../auth/session.guard';
import { IdParam } from '../common/http/id-param';
import { CurrentSession, type SessionPrincipal } from '../common/http/principal';
import { ProjectsService } from '../projects/projects.service';
import { AnnotationsService } from '../submissions/annotations.service';
import { EXPORT_FORMATS, exportContentType, parseFormat } from '../submissions/export-format';
import { ConsoleTasksService } from './console-tasks.service';
import { ConsoleTaskListQueryDto } from './dto/console-tasks.dto';

/** The console's views of a project's tasks and results (API.md §4), for the signed-in owner. */
@ApiTags('console')
@ApiBearerAuth()
@UseGuards(SessionGuard)
@Controller('api/console/projects/:uuid')
export class ConsoleTasksController {
  constructor(
    private readonly tasks: ConsoleTasksService,
    private readonly annotations: AnnotationsService,
    private readonly projects: ProjectsService,
  ) {}

  @Get('progress')
  async progress(@CurrentSession() session: SessionPrincipal, @IdParam('uuid') uuid: string): Promise<DataBody<ProjectProgress>> {
    return { data: await this.tasks.progress(session.accountId, uuid) };
  }

  @Get('tasks')
  async list(
    @CurrentSession() session: SessionPrincipal,
    @IdParam('uuid') uuid: string,
    @Query() query: ConsoleTaskListQueryDto,
  ): Promise<DataBody<ConsoleTaskRow[]> & { next_cursor: string | null }> {
    const page = await this.tasks.list(session.accountId, uuid, query);
    return { data: page.tasks, next_cursor: page.next_cursor };
  }

  @Get('tasks/:taskUuid')
  async detail(
    @CurrentSession() session: SessionPrincipal,
    @IdParam('uuid') uuid: string,
    @IdParam('taskUuid') taskUuid: string,
  ): Promise<DataBody<ConsoleTaskDetail>> {
    return { data: await this.tasks.detail(session.accountId, uuid, taskUuid) };
  }

  /**
   * Cancels this one task as cancel_outstanding does every outstanding one: it leaves the workers' queue,
   * its active leases end, what was submitted stays readable. `cancelled` is 0 when it was already
   * complete or cancelled (docs/decisions.md, "Cancelling one task").
   */
  @Post('tasks/:taskUuid/cancel')
  @HttpCode(200)
  async cancel(
    @CurrentSession() session: SessionPrincipal,
    @IdParam('uuid') uuid: string,
    @IdParam('taskUuid') taskUuid: string,
  ): Promise<DataBody<CancelOutstandingResult>> {
    return { data: await this.projects.cancelTask(session.accountId, uuid, taskUuid) };
  }

  /** The same streamed export as GET /api/v1/projects/:uuid/annotations, as a download. */
  @Get('results')
  @ApiQuery({ name: 'format', required: false, enum: EXPORT_FORMATS })
  async results(
    @CurrentSession() session: SessionPrincipal,
    @IdParam('uuid') uuid: string,
    @Res() reply: FastifyReply,
    @Query('format') format?: string,
  ): Promise<void> {
    const exportFormat = parseFormat(format, false);
    await this.projects.owned(session.accountId, uuid); // 404 for another account's, like every console call
    // The owner reads results as its own live key would (the export only looks at account and mode).
    const reader = { keyId: `session:${session.sessionId}`, accountId: session.accountId, mode: 'live' as const };
    const chunks = await this.annotations.projectAnnotations(reader, uuid, true, exportFormat);
    const stream = Readable.from(chunks, { objectMode: false });
    stream.on('error', (error) => reply.log.error({ err: error }, 'results download failed mid-stream'));
    const name = exportFormat === 'csv' ? `crowdbox-${uuid}.csv` : `crowdbox-${uuid}${exportFormat === 'coco' ? '-coco' : ''}.json`;
    await reply
      .type(exportContentType(exportFormat))
      .header('content-disposition', `attachment; filename="${name}"`)
      .send(stream);
  }
}
