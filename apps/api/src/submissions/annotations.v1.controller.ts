import type { DataBody, TaskAnnotationsRecord } from '@crowdbox/contracts';
import { Controller, Get, Query, Res, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ref } from '../bootstrap/openapi-schemas';
import { ApiData, ApiErrors, ApiKeyAuth, ApiUuidParam, TAGS } from '../common/http/api-docs';
import type { FastifyReply } from 'fastify';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { ApiException } from '../common/errors/api.exception';
import { IdParam } from '../common/http/id-param';
import { sendStream } from '../common/http/send-stream';
import { CurrentApiKey, type ApiKeyPrincipal } from '../common/http/principal';
import { AnnotationsService } from './annotations.service';
import { ApiExport, exportContentType, parseFormat } from './export-format';

function parseView(view: string | undefined): boolean {
  if (view === undefined || view === '' || view === 'consensus') return false;
  if (view === 'submissions') return true;
  throw ApiException.unprocessable('view', 'must be "submissions" (or absent for consensus boxes only)');
}

/** Results of the requester API: consensus boxes per task, and a project's complete tasks as a stream. */
@ApiTags(TAGS.requester)
@ApiKeyAuth()
@UseGuards(ApiKeyGuard)
@Controller('api/v1')
export class AnnotationsV1Controller {
  constructor(private readonly annotations: AnnotationsService) {}

  @Get('tasks/:uuid/annotations')
  @ApiOperation({
    summary: "Get a task's consensus boxes",
    description: 'The consensus of the workers\' boxes (empty until the task is complete); `?view=submissions` adds every worker\'s own boxes.',
  })
  @ApiUuidParam('uuid', 'the task')
  @ApiQuery({ name: 'view', required: false, enum: ['submissions'], description: 'add `submissions`: every worker\'s own boxes' })
  @ApiData(200, ref('TaskAnnotationsRecord'))
  @ApiErrors([401, 422, 429], { 422: '`view` is not `submissions`, or `worktask not found` (no such task, or another account\'s).' })
  async task(
    @CurrentApiKey() key: ApiKeyPrincipal,
    @IdParam('uuid') uuid: string,
    @Query('view') view?: string,
  ): Promise<DataBody<TaskAnnotationsRecord>> {
    return { data: await this.annotations.taskAnnotations(key, uuid, parseView(view)) };
  }

  @Get('projects/:uuid/annotations')
  @ApiOperation({
    summary: "Export a project's results",
    description:
      'Complete tasks only, oldest completion first, streamed. `format=coco` answers a COCO detection file (`{images, categories, annotations}`, `bbox: [x, y, w, h]` in pixels), `format=csv` one row per box (text/csv).',
  })
  @ApiUuidParam('uuid', 'the project')
  @ApiQuery({ name: 'view', required: false, enum: ['submissions'], description: 'add `submissions`: every worker\'s own boxes' })
  @ApiExport()
  @ApiErrors([401, 422, 429], { 422: '`view` or `format` is not one of the values, or `project not found` (no such project, or another account\'s).' })
  async project(
    @CurrentApiKey() key: ApiKeyPrincipal,
    @IdParam('uuid') uuid: string,
    @Res() reply: FastifyReply,
    @Query('view') view?: string,
    @Query('format') format?: string,
  ): Promise<void> {
    const exportFormat = parseFormat(format);
    const chunks = await this.annotations.projectAnnotations(key, uuid, parseView(view), exportFormat);
    await sendStream(reply, chunks, { type: exportContentType(exportFormat), what: 'annotations export' });
  }
}
