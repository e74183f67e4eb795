import type { CheckoutResponse, DataBody, EarningsResponse, SubmitResponse, WorkProjectResponse, WorkSubmissionsPage } from '@crowdbox/contracts';
import { Body, Controller, Get, HttpCode, Post, Query, Res, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ref } from '../bootstrap/openapi-schemas';
import { ApiData, ApiErrors, ApiPageQuery, ApiSessionAuth, ApiUuidParam, BODY_ERRORS, TAGS } from '../common/http/api-docs';
import type { FastifyReply } from 'fastify';
import { SessionGuard } from '../auth/session.guard';
import { IdParam } from '../common/http/id-param';
import { CurrentSession, type SessionPrincipal } from '../common/http/principal';
import { CheckoutsService } from './checkouts.service';
import { CheckoutDto, ReleaseDto, SubmitDto, WorkSubmissionsQueryDto } from './dto/work.dto';
import { SubmitService } from './submit.service';
import { WorkHistoryService } from './work-history.service';
import { WorkSummaryService } from './work-summary.service';

/** The worker API (API.md §3): find work, lease a task, submit boxes, give a task back. */
@ApiTags(TAGS.work)
@ApiSessionAuth()
@UseGuards(SessionGuard)
@Controller('api/work')
export class WorkController {
  constructor(
    private readonly checkouts: CheckoutsService,
    private readonly submissions: SubmitService,
    private readonly summary: WorkSummaryService,
    private readonly history: WorkHistoryService,
  ) {}

  @Get('projects')
  @ApiOperation({ summary: 'Projects with work', description: 'Other accounts\' projects that have a task this worker may take, with how many.' })
  @ApiData(200, { type: 'array', items: ref('WorkProject') })
  @ApiErrors([401, 429])
  async projects(@CurrentSession() worker: SessionPrincipal): Promise<DataBody<WorkProjectResponse[]>> {
    return { data: await this.summary.projects(worker) };
  }

  /** 201 with a new lease; 200 with the lease this worker already holds in that project. */
  @Post('checkouts')
  @ApiOperation({
    summary: 'Check out the next task',
    description: 'Leases the next task of the project this worker has not touched, until `expires_at`. A worker holds one lease per project.',
  })
  @ApiData(201, ref('Checkout'), 'A new lease.')
  @ApiData(200, ref('Checkout'), 'The lease this worker already holds in that project.')
  @ApiErrors([...BODY_ERRORS, 401, 403, 404, 415, 422, 429, 503], {
    403: 'A write from another site, or field `project_uuid`: the project is the worker\'s own account\'s.',
    404: 'Field `root`: `no task available`, or the project is not found.',
    503: 'The only tasks left to this worker stayed locked by other work past the wait (retry after `Retry-After`), or the database does not answer.',
  })
  async checkOut(
    @CurrentSession() worker: SessionPrincipal,
    @Body() body: CheckoutDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<DataBody<CheckoutResponse>> {
    const { checkout, created } = await this.forgettingProjects(worker, this.checkouts.checkOut(worker, body.project_uuid));
    reply.status(created ? 201 : 200);
    return { data: checkout };
  }

  @Get('checkouts')
  @ApiOperation({ summary: 'Active checkouts', description: 'This worker\'s active leases, to resume after a reload.' })
  @ApiData(200, { type: 'array', items: ref('Checkout') })
  @ApiErrors([401, 429])
  async active(@CurrentSession() worker: SessionPrincipal): Promise<DataBody<CheckoutResponse[]>> {
    return { data: await this.checkouts.activeCheckouts(worker) };
  }

  /** One lease's state, unchanged (docs/decisions.md, "A lease's state can be read"). */
  @Get('checkouts/:id')
  @ApiOperation({ summary: 'A lease\'s state', description: '`active`, `expired`, `submitted`, `released` or `cancelled`; reading it changes nothing.' })
  @ApiUuidParam('id', 'the checkout')
  @ApiData(200, ref('LeaseState'))
  @ApiErrors([401, 404, 429])
  async checkout(@CurrentSession() worker: SessionPrincipal, @IdParam('id') id: string): Promise<DataBody<{ checkout_id: string; state: string }>> {
    return { data: await this.checkouts.state(worker, id) };
  }

  @Post('checkouts/:id/submit')
  @ApiOperation({
    summary: 'Submit boxes',
    description: 'Boxes in pixels of the image, inside it, with the project\'s labels. The same body again replays the result.',
  })
  @ApiUuidParam('id', 'the checkout')
  @ApiData(201, ref('SubmitResult'))
  @ApiErrors([...BODY_ERRORS, 401, 403, 404, 409, 415, 422, 429], {
    409: 'The checkout changed while it was being submitted: submit again.',
    422: 'A box or field is invalid, or the lease has ended (`checkout has expired`, released, cancelled, completed, submitted otherwise).',
  })
  async submit(
    @CurrentSession() worker: SessionPrincipal,
    @IdParam('id') id: string,
    @Body() body: SubmitDto,
  ): Promise<DataBody<SubmitResponse>> {
    return { data: await this.forgettingProjects(worker, this.submissions.submit(worker, id, body)) };
  }

  /** Gives the task back; `problem` says what is wrong with it, for its owner (docs/decisions.md, "Problem reports"). */
  @Post('checkouts/:id/release')
  @ApiOperation({ summary: 'Give a task back', description: 'Ends the lease at once; `problem` reports what is wrong with the task, for its owner.' })
  @ApiUuidParam('id', 'the checkout')
  @ApiData(200, ref('LeaseState'))
  @ApiErrors([...BODY_ERRORS, 401, 403, 404, 415, 422, 429], { 422: '`problem` is not one of the values, or the lease was already submitted.' })
  @HttpCode(200)
  async release(
    @CurrentSession() worker: SessionPrincipal,
    @IdParam('id') id: string,
    @Body() body: ReleaseDto,
  ): Promise<DataBody<{ checkout_id: string; state: string }>> {
    return { data: await this.forgettingProjects(worker, this.checkouts.release(worker, id, body.problem ?? null)) };
  }

  /**
   * Awaits a change the worker makes to their leases and then forgets their cached project list (however
   * the change ended: a failure may have changed something too), so their next list shows it.
   */
  private async forgettingProjects<T>(worker: SessionPrincipal, change: Promise<T>): Promise<T> {
    try {
      return await change;
    } finally {
      this.summary.forgetProjects(worker);
    }
  }

  @Get('earnings')
  @ApiOperation({ summary: 'Earnings', description: 'Submissions and cents earned, in total and per project.' })
  @ApiData(200, ref('Earnings'))
  @ApiErrors([401, 429])
  async earnings(@CurrentSession() worker: SessionPrincipal): Promise<DataBody<EarningsResponse>> {
    return { data: await this.summary.earnings(worker) };
  }

  /** The worker's own submissions, newest first, keyset-paged (docs/decisions.md, "Worker history"). */
  @Get('submissions')
  @ApiOperation({ summary: 'Submission history', description: 'The worker\'s own submissions, newest first, keyset-paged: the next page is `before=<next_cursor>` with the same `limit`.' })
  @ApiPageQuery()
  @ApiOkResponse({ description: 'A page of submissions.', schema: ref('WorkSubmissionsPage') })
  @ApiErrors([401, 422, 429], { 422: '`before` or `limit` is invalid.' })
  async submissionHistory(@CurrentSession() worker: SessionPrincipal, @Query() query: WorkSubmissionsQueryDto): Promise<WorkSubmissionsPage> {
    return this.history.submissions(worker, query);
  }
}
