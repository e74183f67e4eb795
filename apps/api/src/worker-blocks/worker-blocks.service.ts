import { MAX_BLOCKED_WORKERS, type BlockedWorkerResponse, type BlockWorkerResult } from '@crowdbox/contracts';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { ApiException } from '../common/errors/api.exception';
import { isUuid } from '../common/crypto.util';
import { ProjectsService } from '../projects/projects.service';
import { findWorkerByPseudonym } from '../submissions/find-worker';
import { workerPseudonym } from '../submissions/worker-pseudonym';
import { CheckoutsService } from '../work/checkouts.service';

interface BlockRow {
  id: string;
  worker_id: string;
  project_id: string;
  display_name: string;
  created_at: Date;
}

/** Blocks from `source` (the table, or what a CTE inserted or deleted) with their project's name. */
const blockRows = (source: string) => `SELECT wb.id, wb.worker_id, wb.project_id, p.display_name, wb.created_at
                                         FROM ${source} wb JOIN projects p ON p.id = wb.project_id`;

const toResponse = (row: BlockRow): BlockedWorkerResponse => ({
  id: row.id,
  worker: workerPseudonym(row.project_id, row.worker_id),
  project: { uuid: row.project_id, display_name: row.display_name },
  blocked_at: row.created_at.toISOString(),
});

/**
 * Requesters blocking workers (docs/decisions.md, "Blocking a worker"). What a block does is read where
 * tasks are handed out: the lease statement (work/checkouts.service.ts) and the work list
 * (work/work-summary.service.ts) each probe `worker_blocks`; this service only writes and lists it.
 */
@Injectable()
export class WorkerBlocksService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly projects: ProjectsService,
    private readonly checkouts: CheckoutsService,
  ) {}

  /**
   * POST /api/console/projects/:uuid/workers/:worker/block. The worker is named by their pseudonym in
   * that project's results, so only a worker who submitted there can be named. Blocking again answers
   * the block as it is (`created: false`) and, like the first time, ends any lease the worker holds on
   * the account's tasks: none can begin after a block, but a checkout that raced a block made before
   * migration 1767100000000 may have left one.
   */
  async block(accountId: string, projectUuid: string, worker: string): Promise<BlockWorkerResult> {
    const project = await this.projects.owned(accountId, projectUuid);
    const workerId = await findWorkerByPseudonym(this.db, project.id, worker);
    if (!workerId) throw ApiException.of(404, 'worker', 'no submission of this project is by that worker');
    const { result, afterCommit } = await this.db.transaction(async (tx) => {
      // One block at a time per account, so two can neither both pass the limit nor both insert.
      await tx.query('SELECT 1 FROM accounts WHERE id = $1 FOR NO KEY UPDATE', [accountId]);
      // Waits for the worker's leases on the account's tasks whose insert is in flight, so the update below
      // ends them, and makes any that start now wait for this commit and see the block (migration 1767100000000).
      await tx.query('SELECT pg_advisory_xact_lock(worker_block_key($1, $2))', [workerId, accountId]);
      const existing: BlockRow[] = await tx.query(`${blockRows('worker_blocks')} WHERE wb.account_id = $1 AND wb.worker_id = $2`, [accountId, workerId]);
      const row = existing[0] ?? (await this.insert(tx, accountId, workerId, project.id));
      const leases = await this.checkouts.endForAccount(tx, workerId, accountId);
      return { result: { ...toResponse(row), created: !existing[0], ended_checkouts: leases.ended }, afterCommit: leases.afterCommit };
    });
    afterCommit();
    return result;
  }

  /** GET /api/console/blocked_workers: the account's blocks, newest first (at most MAX_BLOCKED_WORKERS). */
  async list(accountId: string): Promise<BlockedWorkerResponse[]> {
    const rows: BlockRow[] = await this.db.query(
      `${blockRows('worker_blocks')} WHERE wb.account_id = $1 ORDER BY wb.created_at DESC, wb.id DESC`,
      [accountId],
    );
    return rows.map(toResponse);
  }

  /** DELETE /api/console/blocked_workers/:id: the worker may take the account's tasks again. */
  async unblock(accountId: string, id: string): Promise<BlockedWorkerResponse> {
    const rows: BlockRow[] = isUuid(id)
      ? await this.db.query(
          `WITH removed AS (DELETE FROM worker_blocks WHERE id = $1 AND account_id = $2 RETURNING *) ${blockRows('removed')}`,
          [id, accountId],
        )
      : [];
    if (!rows[0]) throw ApiException.notFound('blocked worker not found');
    return toResponse(rows[0]);
  }

  private async insert(tx: EntityManager, accountId: string, workerId: string, projectId: string): Promise<BlockRow> {
    const [{ n }]: Array<{ n: number }> = await tx.query('SELECT count(*)::int AS n FROM worker_blocks WHERE account_id = $1', [accountId]);
    if (n >= MAX_BLOCKED_WORKERS) {
      throw ApiException.unprocessable('root', `an account may block at most ${MAX_BLOCKED_WORKERS.toLocaleString('en-US')} workers; unblock one first`);
    }
    const rows: BlockRow[] = await tx.query(
      `WITH added AS (INSERT INTO worker_blocks (id, account_id, worker_id, project_id) VALUES ($1, $2, $3, $4) RETURNING *) ${blockRows('added')}`,
      [randomUUID(), accountId, workerId, projectId],
    );
    return rows[0];
  }
}
