import type { CheckoutResponse, TaskProblem } from '@crowdbox/contracts';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import type { PoolClient } from 'pg';
import { DataSource, type EntityManager } from 'typeorm';
import { ApiException } from '../common/errors/api.exception';
import { databaseUnavailableError } from '../common/errors/error-response';
import { isUuid } from '../common/crypto.util';
import type { SessionPrincipal } from '../common/http/principal';
import { pgPool, runPrepared, type PreparedStatement } from '../database/prepared-statement';
import { ProjectsService } from '../projects/projects.service';
import { CHECKOUT_ROW_SQL, toCheckoutResponse, type CheckoutRow } from './checkout.mapper';
import { CheckoutExpiryScheduler } from './checkout-expiry.scheduler';
import { PG_SQLSTATE, sqlState } from '../common/errors/sql-state';
import { LEASE_SQLSTATE, workErrors } from './lease-errors';

/** How long after a lease ended its worker may still say what was wrong with the task (see `release`). */
const LATE_REPORT_WINDOW = '15 minutes';

/** Conflicts that only mean "another worker got there first": the next attempt picks another task. */
const RETRYABLE = new Set<string>([LEASE_SQLSTATE.noFreeSlot, LEASE_SQLSTATE.taskClosed, PG_SQLSTATE.uniqueViolation, PG_SQLSTATE.deadlockDetected]);
const MAX_ATTEMPTS = 8;

/**
 * The oldest open task of the project that has a free slot and that this worker never leased, row-locked
 * by `lock` (none: a plain read). `held` skips the work when this snapshot sees a lease of the worker's in
 * the project. Full tasks are stepped over on the task row's lease count (migration 1764300000000) instead
 * of counting their leases.
 */
const candidateSql = (lock: string) => `
    WITH held AS (
      SELECT 1 FROM checkouts h JOIN tasks ht ON ht.id = h.task_id
       WHERE h.worker_id = $2 AND h.state = 'active' AND h.expires_at > now() AND ht.project_id = $1
         AND ht.completed_at IS NULL
       LIMIT 1
    ), candidate AS (
      SELECT t.id, t.project_id, t.prompt, t.external_image_url, t.reward, t.allowed_completion_time_seconds,
             t.required_submissions
        FROM tasks t
       WHERE t.project_id = $1 AND t.completed_at IS NULL AND t.cancelled_at IS NULL
         AND NOT EXISTS (SELECT 1 FROM held)
         AND NOT EXISTS (SELECT 1 FROM projects ap WHERE ap.id = $1 AND ap.archived_at IS NOT NULL)
         -- A worker the project's account blocked gets none of its tasks (docs/decisions.md, "Blocking a worker").
         AND NOT EXISTS (SELECT 1 FROM worker_blocks wb JOIN projects bp ON bp.account_id = wb.account_id
                          WHERE bp.id = $1 AND wb.worker_id = $2)
         -- The hint of migration 1764300000000: a full task none of whose leases has expired is skipped
         -- on its row alone, before the two probes below.
         AND (t.submission_count + t.leased_count < t.required_submissions OR t.lease_expiry_min <= now())
         AND NOT EXISTS (SELECT 1 FROM checkouts mine WHERE mine.task_id = t.id AND mine.worker_id = $2)
         AND t.submission_count + (SELECT count(*) FROM checkouts c
                                    WHERE c.task_id = t.id AND c.state = 'active' AND c.expires_at > now())
             < t.required_submissions
       ORDER BY t.created_at, t.id
       LIMIT 1
       ${lock}
    )`;

/** Inserts the lease on `candidate` ($3: its id) and answers it, taking the task's columns from the row it locked. */
const LEASE_CANDIDATE = `, leased AS (
      INSERT INTO checkouts (id, task_id, worker_id, expires_at)
      SELECT $3, id, $2, now() + make_interval(secs => allowed_completion_time_seconds) FROM candidate
      RETURNING id, task_id, checked_out_at, expires_at
    )
    SELECT ${CHECKOUT_ROW_SQL}
      FROM leased c JOIN candidate t ON t.id = c.task_id JOIN projects p ON p.id = t.project_id`;

/**
 * Leases the oldest open task of the project that has a free slot and that this worker never leased.
 * One statement: SKIP LOCKED lets concurrent workers pass each other's candidate instead of queueing on
 * it, and the slot is re-counted under the task's row lock by the checkouts trigger, which refuses
 * (CB002) a slot that a transaction committed after this statement's snapshot took; that attempt is
 * simply retried. A worker holds at most one active lease per project: `held` skips the work when this
 * snapshot sees one, and the trigger refuses (CB008) one committed since, so two checkouts from one worker
 * at the same instant get one lease between them (migration 1765600000000).
 */
const LEASE_NEXT_TASK: PreparedStatement = {
  name: 'checkouts_lease_next',
  text: candidateSql('FOR UPDATE OF t SKIP LOCKED') + LEASE_CANDIDATE,
};

/**
 * Whether the worker could lease a task of the project now, read without a lock: SKIP LOCKED also steps
 * over a free task whose row another transaction merely holds for a moment (another worker's lease insert,
 * a submit, a release, the sweep, even a foreign-key check's KEY SHARE), so its empty answer alone does
 * not mean "none left".
 */
const TASK_LEFT: PreparedStatement = {
  name: 'checkouts_task_left',
  text: `${candidateSql('')} SELECT 1 FROM candidate`,
};

/** LEASE_NEXT_TASK that waits for a locked candidate (for at most LOCK_WAIT) instead of stepping over it. */
const LEASE_NEXT_TASK_WAITING: PreparedStatement = {
  name: 'checkouts_lease_next_waiting',
  text: candidateSql('FOR UPDATE OF t') + LEASE_CANDIDATE,
};

/**
 * How long LEASE_NEXT_TASK_WAITING waits for a task's row lock. The holders above keep it for
 * milliseconds; one held longer is not a moment's contention, and the checkout answers 503 (retry) rather
 * than "no task available", which would not be true.
 */
const LOCK_WAIT = '2s';

/**
 * Ends the worker's active leases as a release does: each lease is locked, then its task (the order of
 * every lease writer; the tasks by id), and it ends as the task then reads: `cancelled` when a cancel_outstanding committed
 * meanwhile, else `released` (`cancelled` when the account that owns the task blocked the worker), or
 * `expired` when its time ran out (at `expires_at`, not now). `$2`: the problem reported with it, or null. Which leases:
 * - `one`: the one with id `$3`;
 * - `all`: every one (the worker's account is being deleted);
 * - `account`: those on tasks of account `$3` (that account blocked the worker).
 */
const releaseSql = (scope: 'one' | 'all' | 'account') => `
  WITH lease AS (
    SELECT c.id, c.task_id FROM checkouts c WHERE c.worker_id = $1 AND c.state = 'active'
       ${scope === 'one' ? 'AND c.id = $3' : ''}
       ${scope === 'account' ? 'AND EXISTS (SELECT 1 FROM tasks ot JOIN projects op ON op.id = ot.project_id WHERE ot.id = c.task_id AND op.account_id = $3)' : ''}
     ORDER BY c.id FOR UPDATE
  ), task AS (
    -- In task id order, not the leases': two of these for different workers with leases on the same tasks
    -- (a deletion and a block) would otherwise each hold a task the other waits for.
    SELECT t.id, t.cancelled_at IS NOT NULL AS cancelled FROM tasks t WHERE t.id IN (SELECT task_id FROM lease)
     ORDER BY t.id FOR NO KEY UPDATE OF t
  ), ended AS (
    UPDATE checkouts c
       SET state = CASE WHEN task.cancelled THEN 'cancelled' WHEN c.expires_at > now() THEN '${scope === 'account' ? 'cancelled' : 'released'}' ELSE 'expired' END,
           -- A lease whose time ran out ended then, as the expiry job and the sweep record it (lease-expiry.ts),
           -- and takes a report only within LATE_REPORT_WINDOW of that, as one that job already ended does.
           ended_at = least(now(), c.expires_at),
           problem = CASE WHEN c.expires_at > now() - interval '${LATE_REPORT_WINDOW}' THEN $2 END
      FROM lease JOIN task ON task.id = lease.task_id
     WHERE c.id = lease.id
     RETURNING c.id, c.state
  ) SELECT id, state FROM ended`;
const RELEASE_ONE = releaseSql('one');
const RELEASE_ALL = releaseSql('all');
const RELEASE_FOR_ACCOUNT = releaseSql('account');

const ACTIVE_CHECKOUTS_SQL = `
  SELECT ${CHECKOUT_ROW_SQL}
    FROM checkouts c JOIN tasks t ON t.id = c.task_id JOIN projects p ON p.id = t.project_id
   WHERE c.worker_id = $1 AND c.state = 'active' AND c.expires_at > now() AND t.completed_at IS NULL`;

@Injectable()
export class CheckoutsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly projects: ProjectsService,
    private readonly expiry: CheckoutExpiryScheduler,
  ) {}

  /** POST /api/work/checkouts: a new lease (created: true) or the one already held in that project. */
  async checkOut(worker: SessionPrincipal, projectUuid: string): Promise<{ checkout: CheckoutResponse; created: boolean }> {
    const project = isUuid(projectUuid) ? await this.projects.find(projectUuid) : undefined;
    if (!project) throw workErrors.projectNotFound();
    if (project.accountId === worker.accountId) {
      throw ApiException.of(403, 'project_uuid', 'this project belongs to your own account; workers take other accounts\u2019 tasks');
    }
    // An archived project's tasks were cancelled with it; one added through another process's stale cache is not offered.
    if (project.archivedAt) throw workErrors.noTaskAvailable();
    const leased = await this.leaseNextTask(project.id, worker.userId);
    if (leased) {
      this.expiry.leased(leased.checkout_id, leased.checked_out_at, leased.expires_at);
      return { checkout: toCheckoutResponse(leased), created: true };
    }
    const held = await this.activeCheckouts(worker, project.id);
    if (held[0]) return { checkout: held[0], created: false };
    throw workErrors.noTaskAvailable();
  }

  /**
   * Runs LEASE_NEXT_TASK until it leases a task, finds none (undefined), or has lost the race
   * MAX_ATTEMPTS times (no task available; 503 when the last attempts waited for a locked task: one was
   * there, so "none left" would not be true). Every attempt runs on one pool client, released cleanly
   * after a conflict: pg-pool closes a client released with an error, which is what Pool#query
   * (runPrepared on the pool) does on any failed statement, so each lost race used to cost a new PostgreSQL
   * connection and a new PREPARE of this statement (docs/performance.md, "Checkout and submit").
   *
   * An empty answer is "none left" only when TASK_LEFT agrees: SKIP LOCKED steps over a free task whose
   * row is locked for a moment, and the worker was told there was no task while one was there. Then the
   * attempt waits for that lock (LEASE_NEXT_TASK_WAITING). The empty answer of a project with nothing for
   * this worker still costs one more read, and no wait.
   */
  private async leaseNextTask(projectId: string, workerId: string): Promise<CheckoutRow | undefined> {
    const client = await pgPool(this.db).connect();
    let broken: Error | undefined;
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          const leased = (await runPrepared<CheckoutRow>(client, LEASE_NEXT_TASK, [projectId, workerId, randomUUID()]))[0];
          if (leased) return leased;
          if ((await runPrepared(client, TASK_LEFT, [projectId, workerId])).length === 0) return undefined;
          const waited = await this.leaseWaiting(client, projectId, workerId);
          if (waited) return waited;
        } catch (error) {
          const code = sqlState(error);
          // A failed autocommit statement leaves the connection idle and usable; anything else does not.
          if (!code) broken = error as Error;
          // Another checkout of this worker's leased a task in the project since this statement began,
          // or the account blocked the worker meanwhile (checkOut then answers the lease held, or none).
          if (code === LEASE_SQLSTATE.leaseHeldInProject || code === LEASE_SQLSTATE.workerBlocked) return undefined;
          if (code && RETRYABLE.has(code) && attempt < MAX_ATTEMPTS) continue;
          if (code && RETRYABLE.has(code)) throw workErrors.noTaskAvailable();
          // A wait past LOCK_WAIT (lock_not_available) is answered as the database busy, as any error of its kind.
          throw error;
        }
        // The task was taken or closed by the time its lock came free; the next attempt looks again. Past
        // MAX_ATTEMPTS a task was still there, so "none left" would not be true: busy, retry.
        if (attempt >= MAX_ATTEMPTS) throw databaseUnavailableError('busy');
      }
    } finally {
      client.release(broken);
    }
  }

  /** LEASE_NEXT_TASK_WAITING in a transaction of its own, which bounds its wait with a lock_timeout. */
  private async leaseWaiting(client: PoolClient, projectId: string, workerId: string): Promise<CheckoutRow | undefined> {
    await client.query('BEGIN');
    try {
      await client.query(`SET LOCAL lock_timeout = '${LOCK_WAIT}'`);
      const leased = (await runPrepared<CheckoutRow>(client, LEASE_NEXT_TASK_WAITING, [projectId, workerId, randomUUID()]))[0];
      await client.query('COMMIT');
      return leased;
    } catch (error) {
      // Leaves the connection idle for the next attempt; a ROLLBACK that fails throws its own error instead.
      await client.query('ROLLBACK');
      throw error;
    }
  }

  /** GET /api/work/checkouts: this worker's live leases, oldest first (to resume after a reload). */
  async activeCheckouts(worker: SessionPrincipal, projectId?: string): Promise<CheckoutResponse[]> {
    const rows: CheckoutRow[] = projectId
      ? await this.db.query(`${ACTIVE_CHECKOUTS_SQL} AND t.project_id = $2 ORDER BY c.checked_out_at, c.id`, [worker.userId, projectId])
      : await this.db.query(`${ACTIVE_CHECKOUTS_SQL} ORDER BY c.checked_out_at, c.id`, [worker.userId]);
    return rows.map(toCheckoutResponse);
  }

  /**
   * GET /api/work/checkouts/:id: what became of one of this worker's leases (active, submitted, released,
   * expired, cancelled, or `completed` when other workers' submissions completed its task while it was
   * active: see workErrors.completed), read without changing it. The worker app asks it of a draft left
   * by a reload or a lost reply, to tell work that was sent from work that was lost.
   */
  async state(worker: SessionPrincipal, checkoutId: string): Promise<{ checkout_id: string; state: string }> {
    if (!isUuid(checkoutId)) throw workErrors.checkoutNotFound();
    const rows: Array<{ state: string }> = await this.db.query(
      `SELECT CASE WHEN c.state = 'active' AND c.expires_at <= now() THEN 'expired'
                   WHEN c.state = 'active' AND t.completed_at IS NOT NULL THEN 'completed'
                   ELSE c.state END AS state
         FROM checkouts c JOIN tasks t ON t.id = c.task_id WHERE c.id = $1 AND c.worker_id = $2`,
      [checkoutId, worker.userId],
    );
    if (!rows[0]) throw workErrors.checkoutNotFound();
    return { checkout_id: checkoutId, state: rows[0].state };
  }

  /**
   * POST /api/work/checkouts/:id/release: the slot is free the moment this commits. Releasing again
   * is harmless; a submitted lease cannot be released. A `problem` is kept on the lease for the task's
   * owner (docs/decisions.md, "Problem reports"); one sent for a lease that had already ended unsubmitted
   * (its time ran out while the worker chose the reason) is kept too, unless that lease holds one or
   * ended more than LATE_REPORT_WINDOW ago: a worker cannot go back over old skips to add reports. A lease
   * whose time ran out ended at its `expires_at`, whether or not its expiry job has marked it yet.
   *
   * The lease is locked, then its task, and ends as the task then reads (RELEASE_ONE): `cancelled` when a
   * cancel_outstanding committed meanwhile. That cancel skipped this lease, which the release held while
   * it waited for the task, and left it to the release (projects/cancel-outstanding.ts); the worker app
   * tells "skipped a cancelled task" by that state.
   */
  async release(worker: SessionPrincipal, checkoutId: string, problem: TaskProblem | null = null): Promise<{ checkout_id: string; state: string }> {
    if (!isUuid(checkoutId)) throw workErrors.checkoutNotFound();
    const rows: Array<{ id: string; state: string }> = await this.db.query(RELEASE_ONE, [worker.userId, problem, checkoutId]);
    if (rows[0]) {
      this.expiry.ended(checkoutId);
      return { checkout_id: checkoutId, state: rows[0].state };
    }
    const current: Array<{ state: string }> = await this.db.query(
      `WITH reported AS (
         UPDATE checkouts SET problem = $3
          WHERE id = $1 AND worker_id = $2 AND $3::text IS NOT NULL AND problem IS NULL AND state IN ('released', 'expired', 'cancelled')
            AND ended_at > now() - interval '${LATE_REPORT_WINDOW}'
       ) SELECT state FROM checkouts WHERE id = $1 AND worker_id = $2`,
      [checkoutId, worker.userId, problem],
    );
    if (!current[0]) throw workErrors.checkoutNotFound();
    if (current[0].state === 'submitted') throw workErrors.releaseSubmitted();
    return { checkout_id: checkoutId, state: current[0].state };
  }

  /**
   * Releases every active lease of the worker as `release` does, in `tx` (the account's deletion); answers
   * what to run once `tx` has committed: the ended leases' expiry jobs are dropped, as after a release.
   */
  async releaseAll(tx: EntityManager, workerId: string): Promise<() => void> {
    return this.ended(await tx.query(RELEASE_ALL, [workerId, null]));
  }

  /**
   * Ends, in `tx`, the worker's active leases on tasks of `accountId` (which is blocking the worker), as
   * `cancelled`: the requester took the tasks back. Answers how many, and what to run once `tx` has
   * committed, as `releaseAll` does.
   */
  async endForAccount(tx: EntityManager, workerId: string, accountId: string): Promise<{ ended: number; afterCommit: () => void }> {
    const rows: Array<{ id: string }> = await tx.query(RELEASE_FOR_ACCOUNT, [workerId, null, accountId]);
    return { ended: rows.length, afterCommit: this.ended(rows) };
  }

  private ended(rows: Array<{ id: string }>): () => void {
    return () => rows.forEach(({ id }) => this.expiry.ended(id));
  }
}

