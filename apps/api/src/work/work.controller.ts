import type { CheckoutResponse, DataBody, EarningsResponse, SubmitResponse, WorkProjectResponse, WorkSubmissionsPage } from '@crowdbox/contracts';
import { Body, Controller, Get, HttpCode, Post, Query, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
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
@ApiTags('work')
@ApiBearerAuth()
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
  async projects(@CurrentSession() worker: SessionPrincipal): Promise<DataBody<WorkProjectResponse[]>> {
    return { data: await this.summary.projects(worker) };
  }

  /** 201 with a new lease; 200 with the lease this worker already holds in that project. */
  @Post('checkouts')
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
  async active(@CurrentSession() worker: SessionPrincipal): Promise<DataBody<CheckoutResponse[]>> {
    return { data: await this.checkouts.activeCheckouts(worker) };
  }

  /** One lease's state, unchanged (docs/decisions.md, "A lease's state can be read"). */
  @Get('checkouts/:id')
  async checkout(@CurrentSession() worker: SessionPrincipal, @IdParam('id') id: string): Promise<DataBody<{ checkout_id: string; state: string }>> {
    return { data: await this.checkouts.state(worker, id) };
  }

  @Post('checkouts/:id/submit')
  async submit(
    @CurrentSession() worker: SessionPrincipal,
    @IdParam('id') id: string,
    @Body() body: SubmitDto,
  ): Promise<DataBody<SubmitResponse>> {
    return { data: await this.forgettingProjects(worker, this.submissions.submit(worker, id, body)) };
  }

  /** Gives the task back; `problem` says what is wrong with it, for its owner (docs/decisions.md, "Problem reports"). */
  @Post('checkouts/:id/release')
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
  async earnings(@CurrentSession() worker: SessionPrincipal): Promise<DataBody<EarningsResponse>> {
    return { data: await this.summary.earnings(worker) };
  }

  /** The worker's own submissions, newest first, keyset-paged (docs/decisions.md, "Worker history"). */
  @Get('submissions')
  async submissionHistory(@CurrentSession() worker: SessionPrincipal, @Query() query: WorkSubmissionsQueryDto): Promise<WorkSubmissionsPage> {
    return this.history.submissions(worker, query);
  }
}
