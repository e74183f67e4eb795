import { TASK_STATES, WORKER_PSEUDONYM, type CancelOutstandingResult, type ConsoleTaskDetail, type ConsoleTaskRow, type DataBody, type ProjectProgress } from '@crowdbox/contracts';
import { Controller, Get, HttpCode, Post, Query, Res, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ref } from '../bootstrap/openapi-schemas';
import { ApiData, ApiErrors, ApiPageQuery, ApiSessionAuth, ApiUuidParam, TAGS } from '../common/http/api-docs';
import type { FastifyReply } from 'fastify';
import { SessionGuard } from '../auth/session.guard';
import { IdParam } from '../common/http/id-param';
import { sendStream } from '../common/http/send-stream';
import { CurrentSession, type SessionPrincipal } from '../common/http/principal';
import { ProjectsService } from '../projects/projects.service';
import { AnnotationsService } from '../submissions/annotations.service';
import { ApiExport, exportContentType, parseFormat } from '../submissions/export-format';
import { ConsoleTasksService } from './console-tasks.service';
import { ConsoleTaskListQueryDto } from './dto/console-tasks.dto';

/** The console's views of a project's tasks and results (API.md §4), for the signed-in owner. */
@ApiTags(TAGS.tasks)
@ApiSessionAuth()
@ApiUuidParam('uuid', 'the project')
@UseGuards(SessionGuard)
@Controller('api/console/projects/:uuid')
export class ConsoleTasksController {
  constructor(
    private readonly tasks: ConsoleTasksService,
    private readonly annotations: AnnotationsService,
    private readonly projects: ProjectsService,
  ) {}

  @Get('progress')
  @ApiOperation({ summary: 'Project progress', description: 'Task counts by state, submissions, money paid and committed, and tasks per day over the last 30 days.' })
  @ApiData(200, ref('ProjectProgress'))
  @ApiErrors([401, 404, 429])
  async progress(@CurrentSession() session: SessionPrincipal, @IdParam('uuid') uuid: string): Promise<DataBody<ProjectProgress>> {
    return { data: await this.tasks.progress(session.accountId, uuid) };
  }

  @Get('tasks')
  @ApiOperation({ summary: 'List tasks', description: 'Newest first, keyset-paged: the next page is `before=<next_cursor>` with the same `limit`.' })
  @ApiQuery({ name: 'state', required: false, enum: TASK_STATES, description: 'only tasks in this state' })
  @ApiQuery({ name: 'reported', required: false, enum: ['true'], description: 'only tasks some worker gave back reporting a problem' })
  @ApiQuery({
    name: 'worker',
    required: false,
    schema: { type: 'string', pattern: WORKER_PSEUDONYM.source },
    description: 'only tasks this worker (a pseudonym of the project\'s results) submitted to; none for a name of nobody there',
  })
  @ApiPageQuery()
  @ApiOkResponse({ description: 'A page of tasks.', schema: ref('ConsoleTaskPage') })
  @ApiErrors([401, 404, 422, 429], { 422: 'A query parameter is invalid (`state`, `reported`, `worker`, `before`, `limit`).' })
  async list(
    @CurrentSession() session: SessionPrincipal,
    @IdParam('uuid') uuid: string,
    @Query() query: ConsoleTaskListQueryDto,
  ): Promise<DataBody<ConsoleTaskRow[]> & { next_cursor: string | null }> {
    const page = await this.tasks.list(session.accountId, uuid, query);
    return { data: page.tasks, next_cursor: page.next_cursor };
  }

  @Get('tasks/:taskUuid')
  @ApiOperation({ summary: 'Get a task', description: 'The task with its prompt, labels, reported problems and results (consensus and every worker\'s boxes).' })
  @ApiUuidParam('taskUuid', 'the task')
  @ApiData(200, ref('ConsoleTaskDetail'))
  @ApiErrors([401, 404, 429])
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
  @ApiOperation({ summary: 'Cancel a task', description: 'As cancel_outstanding for one task; `cancelled` is 0 when it was already complete or cancelled.' })
  @ApiUuidParam('taskUuid', 'the task')
  @ApiData(200, ref('CancelOutstandingResult'))
  @ApiErrors([401, 403, 404, 429])
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
  @ApiOperation({
    summary: 'Download the results',
    description: 'The export of GET /api/v1/projects/{uuid}/annotations with every worker\'s boxes, as an attachment (`Content-Disposition`).',
  })
  @ApiExport()
  @ApiErrors([401, 403, 404, 422, 429], {
    403: 'A request from another site (the browser says so): a link elsewhere cannot start the download.',
    422: '`format` is not `json`, `coco` or `csv`.',
  })
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
    const filename = exportFormat === 'csv' ? `crowdbox-${uuid}.csv` : `crowdbox-${uuid}${exportFormat === 'coco' ? '-coco' : ''}.json`;
    await sendStream(reply, chunks, { type: exportContentType(exportFormat), filename, what: 'results download' });
  }
}
