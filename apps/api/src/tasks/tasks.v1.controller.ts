import { LIMITS, type DataBody, type TaskResponse } from '@crowdbox/contracts';
import { Body, Controller, Get, Headers, Post, UseGuards } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ref } from '../bootstrap/openapi-schemas';
import { ApiData, ApiErrors, ApiIdempotencyKey, ApiKeyAuth, ApiUuidParam, BODY_ERRORS, TAGS } from '../common/http/api-docs';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { IdParam } from '../common/http/id-param';
import { EXACT_INTEGERS_CONFIG } from '../common/http/exact-integers';
import { BODY_LIMIT_CONFIG } from '../common/http/json-body.parser';
import { CurrentApiKey, type ApiKeyPrincipal } from '../common/http/principal';
import { AddTaskDto, AddTasksDto } from './dto/add-task.dto';
import { validateIdempotencyKey } from './idempotency';
import { TasksService } from './tasks.service';


/** The Cogmint-compatible task calls of the requester API. */
@ApiTags(TAGS.requester)
@ApiKeyAuth()
@UseGuards(ApiKeyGuard)
@Controller('api/v1')
export class TasksV1Controller {
  constructor(private readonly tasks: TasksService) {}

  @Post('projects/add_task')
  @RouteConfig({ [EXACT_INTEGERS_CONFIG]: [['task', 'substitutions', '*']] })
  @ApiOperation({
    summary: 'Add a task',
    description:
      '`project_uuid` inside `task` or at the top level (both: equal). The template is rendered with `substitutions` (HTML-escaped). With a test key nothing is written: the answer is deterministic fake data.',
  })
  @ApiIdempotencyKey()
  @ApiData(201, ref('Task'), 'The task.')
  @ApiErrors([...BODY_ERRORS, 401, 422, 429], {
    413: 'The body is over 1 MiB; field `body`.',
    422: 'A field is invalid (dotted path, e.g. `task.reward`, `substitutions.<name>`), `task is a required field`, `Idempotency-Key`, or `project not found` (no such project, or another account\'s).',
  })
  async addTask(
    @CurrentApiKey() key: ApiKeyPrincipal,
    @Body() body: AddTaskDto,
    @Headers('idempotency-key') idempotencyKey?: string,
  ): Promise<DataBody<TaskResponse>> {
    return { data: await this.tasks.addTask(key, body, validateIdempotencyKey(idempotencyKey)) };
  }

  @Post('projects/add_tasks')
  @RouteConfig({ [BODY_LIMIT_CONFIG]: LIMITS.batchBodyBytes, [EXACT_INTEGERS_CONFIG]: [['tasks', '*', 'substitutions', '*']] })
  @ApiOperation({
    summary: 'Add up to 1,000 tasks at once',
    description: 'All or nothing: one invalid task refuses the batch, its errors named `tasks.<index>.<field>`.',
  })
  @ApiIdempotencyKey()
  @ApiData(201, { type: 'array', items: ref('Task') }, 'The tasks, in the order given.')
  @ApiErrors([...BODY_ERRORS, 401, 422, 429], {
    413: 'The body is over 10 MiB; field `body`.',
    422: 'A field is invalid (dotted path, e.g. `tasks.3.reward`), `Idempotency-Key`, or `project not found`.',
  })
  async addTasks(
    @CurrentApiKey() key: ApiKeyPrincipal,
    @Body() body: AddTasksDto,
    @Headers('idempotency-key') idempotencyKey?: string,
  ): Promise<DataBody<TaskResponse[]>> {
    return { data: await this.tasks.addTasks(key, body, validateIdempotencyKey(idempotencyKey)) };
  }

  /** `worktasks` is the path of older Cogmint clients (ex_cogmint 0.0.x). */
  @Get(['tasks/:uuid', 'worktasks/:uuid'])
  @ApiOperation({ summary: 'Get a task', description: '`/api/v1/worktasks/{uuid}` is the same call, for older Cogmint clients.' })
  @ApiUuidParam('uuid', 'the task')
  @ApiData(200, ref('Task'))
  @ApiErrors([401, 422, 429], { 422: 'Field `root`, `worktask not found`: no such task, or another account\'s (the seed spec\'s 422).' })
  async getTask(@CurrentApiKey() key: ApiKeyPrincipal, @IdParam('uuid') uuid: string): Promise<DataBody<TaskResponse>> {
    return { data: await this.tasks.getTask(key, uuid) };
  }
}
