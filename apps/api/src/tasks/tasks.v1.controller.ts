import { LIMITS, type DataBody, type TaskResponse } from '@crowdbox/contracts';
import { Body, Controller, Get, Headers, Post, UseGuards } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiHeader, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { IdParam } from '../common/http/id-param';
import { BODY_LIMIT_CONFIG } from '../common/http/json-body.parser';
import { CurrentApiKey, type ApiKeyPrincipal } from '../common/http/principal';
import { AddTaskDto, AddTasksDto } from './dto/add-task.dto';
import { validateIdempotencyKey } from './idempotency';
import { TasksService } from './tasks.service';

const IDEMPOTENCY_HEADER = {
  name: 'Idempotency-Key',
  required: false,
  description: 'The same key with the same body within 24 h replays the first response.',
};

/** The Cogmint-compatible task calls of the requester API. */
@ApiTags('requester')
@ApiSecurity('apikey')
@UseGuards(ApiKeyGuard)
@Controller('api/v1')
export class TasksV1Controller {
  constructor(private readonly tasks: TasksService) {}

  @Post('projects/add_task')
  @ApiHeader(IDEMPOTENCY_HEADER)
  async addTask(
    @CurrentApiKey() key: ApiKeyPrincipal,
    @Body() body: AddTaskDto,
    @Headers('idempotency-key') idempotencyKey?: string,
  ): Promise<DataBody<TaskResponse>> {
    return { data: await this.tasks.addTask(key, body, validateIdempotencyKey(idempotencyKey)) };
  }

  @Post('projects/add_tasks')
  @RouteConfig({ [BODY_LIMIT_CONFIG]: LIMITS.batchBodyBytes })
  @ApiHeader(IDEMPOTENCY_HEADER)
  async addTasks(
    @CurrentApiKey() key: ApiKeyPrincipal,
    @Body() body: AddTasksDto,
    @Headers('idempotency-key') idempotencyKey?: string,
  ): Promise<DataBody<TaskResponse[]>> {
    return { data: await this.tasks.addTasks(key, body, validateIdempotencyKey(idempotencyKey)) };
  }

  /** `worktasks` is the path of older Cogmint clients (ex_cogmint 0.0.x). */
  @Get(['tasks/:uuid', 'worktasks/:uuid'])
  async getTask(@CurrentApiKey() key: ApiKeyPrincipal, @IdParam('uuid') uuid: string): Promise<DataBody<TaskResponse>> {
    return { data: await this.tasks.getTask(key, uuid) };
  }
}
