import { WORKER_PSEUDONYM, type BlockedWorkerResponse, type BlockWorkerResult, type DataBody } from '@crowdbox/contracts';
import { Controller, Delete, Get, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { SessionGuard } from '../auth/session.guard';
import { ref } from '../bootstrap/openapi-schemas';
import { ApiData, ApiErrors, ApiSessionAuth, ApiUuidParam, TAGS } from '../common/http/api-docs';
import { IdParam } from '../common/http/id-param';
import { CurrentSession, type SessionPrincipal } from '../common/http/principal';
import { WorkerBlocksService } from './worker-blocks.service';

/** Requesters blocking workers from the account's tasks (docs/decisions.md, "Blocking a worker"). */
@ApiTags(TAGS.workers)
@ApiSessionAuth()
@UseGuards(SessionGuard)
@Controller('api/console')
export class WorkerBlocksController {
  constructor(private readonly blocks: WorkerBlocksService) {}

  @Post('projects/:uuid/workers/:worker/block')
  @ApiOperation({
    summary: 'Block a worker',
    description:
      'The worker, named by their pseudonym in this project\'s results, gets none of the account\'s tasks any more; their active leases on them end now. ' +
      'Their submissions stay in the results. Blocking again answers the block as it is (`created: false`).',
  })
  @ApiUuidParam('uuid', 'the project in whose results the worker appears')
  @ApiParam({ name: 'worker', description: 'the worker\'s pseudonym in that project (`worker_` and 12 hex digits)', schema: { type: 'string', pattern: WORKER_PSEUDONYM.source } })
  @ApiData(200, ref('BlockWorkerResult'))
  @ApiErrors([401, 403, 404, 422, 429], {
    404: 'The project, or (field `worker`) a worker with that pseudonym among its submissions, is not found.',
    422: 'The account has blocked as many workers as it may.',
  })
  @HttpCode(200)
  async block(
    @CurrentSession() session: SessionPrincipal,
    @IdParam('uuid') uuid: string,
    @IdParam('worker') worker: string,
  ): Promise<DataBody<BlockWorkerResult>> {
    return { data: await this.blocks.block(session.accountId, uuid, worker) };
  }

  @Get('blocked_workers')
  @ApiOperation({ summary: 'List blocked workers', description: 'The account\'s blocks, newest first.' })
  @ApiData(200, { type: 'array', items: ref('BlockedWorker') })
  @ApiErrors([401, 429])
  async list(@CurrentSession() session: SessionPrincipal): Promise<DataBody<BlockedWorkerResponse[]>> {
    return { data: await this.blocks.list(session.accountId) };
  }

  @Delete('blocked_workers/:id')
  @ApiOperation({ summary: 'Unblock a worker', description: 'The worker may take the account\'s tasks again (not those they leased once already).' })
  @ApiUuidParam('id', 'the block')
  @ApiData(200, ref('BlockedWorker'))
  @ApiErrors([401, 403, 404, 429])
  async unblock(@CurrentSession() session: SessionPrincipal, @IdParam('id') id: string): Promise<DataBody<BlockedWorkerResponse>> {
    return { data: await this.blocks.unblock(session.accountId, id) };
  }
}
