import type { DataBody, TaskAnnotationsRecord } from '@crowdbox/contracts';
import { Controller, Get, Query, Res, UseGuards } from '@nestjs/common';
import { ApiQuery, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { ApiException } from '../common/errors/api.exception';
import { IdParam } from '../common/http/id-param';
import { CurrentApiKey, type ApiKeyPrincipal } from '../common/http/principal';
import { AnnotationsService } from './annotations.service';
import { EXPORT_FORMATS, exportContentType, parseFormat } from './export-format';

function parseView(view: string | undefined): boolean {
  if (view === undefined || view === '' || view === 'consensus') return false;
  if (view === 'submissions') return true;
  throw ApiException.unprocessable('view', 'must be "submissions" (or absent for consensus boxes only)');
}

/** Results of the requester API: consensus boxes per task, and a project's complete tasks as a stream. */
@ApiTags('requester')
@ApiSecurity('apikey')
@UseGuards(ApiKeyGuard)
@Controller('api/v1')
export class AnnotationsV1Controller {
  constructor(private readonly annotations: AnnotationsService) {}

  @Get('tasks/:uuid/annotations')
  @ApiQuery({ name: 'view', required: false, enum: ['submissions'] })
  async task(
    @CurrentApiKey() key: ApiKeyPrincipal,
    @IdParam('uuid') uuid: string,
    @Query('view') view?: string,
  ): Promise<DataBody<TaskAnnotationsRecord>> {
    return { data: await this.annotations.taskAnnotations(key, uuid, parseView(view)) };
  }

  @Get('projects/:uuid/annotations')
  @ApiQuery({ name: 'view', required: false, enum: ['submissions'] })
  @ApiQuery({ name: 'format', required: false, enum: EXPORT_FORMATS })
  async project(
    @CurrentApiKey() key: ApiKeyPrincipal,
    @IdParam('uuid') uuid: string,
    @Res() reply: FastifyReply,
    @Query('view') view?: string,
    @Query('format') format?: string,
  ): Promise<void> {
    const exportFormat = parseFormat(format);
    const chunks = await this.annotations.projectAnnotations(key, uuid, parseView(view), exportFormat);
    const stream = Readable.from(chunks, { objectMode: false });
    stream.on('error', (error) => reply.log.error({ err: error }, 'annotations export failed mid-stream'));
    await reply.type(exportContentType(exportFormat)).send(stream);
  }
}
