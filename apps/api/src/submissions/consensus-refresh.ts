import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { PoolClient } from 'pg';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { OnePass } from '../common/one-pass';
import { pgPool } from '../database/prepared-statement';
import { completedTaskPages, pageSql, type PageRow } from './completed-task-pages';
import { storeBack, storedConsensusHolds } from './stored-consensus';
import { consensusInputJson, type ConsensusInput } from './task-results';

/** The submissions of a complete task whose stored consensus does not hold for $4; null when it holds. */
const STALE_TASKS_SQL = pageSql(`CASE WHEN NOT ${storedConsensusHolds('$4::real')} THEN ${consensusInputJson('t')} END AS subs`);

interface StaleTaskRow extends PageRow {
  subs: ConsensusInput[] | null;
}

/** Projects refreshed per pass, oldest mark first by id; the next pass takes the rest. */
const PROJECTS_PER_PASS = 20;

/**
 * The event loop is given back at least this often while computing: one task's consensus takes up to
 * ~90 ms at the box cap, and a page holds 250 tasks. The jobs process also delivers webhooks.
 */
const SLICE_MS = 20;

/** The advisory lock's class (first key); the second is the project id's hash. Any fixed number. */
const REFRESH_LOCK_CLASS = 7_340_001;

/**
 * After a project's IoU threshold changes, its complete tasks' stored consensus no longer holds, and
 * every reader computes it again from the submissions (and stores it back). For an export that is every
 * task, on the HTTP process that serves it. This pass does that work ahead of the readers, in the jobs
 * role: every CONSENSUS_REFRESH_INTERVAL_MS it takes the projects the threshold trigger marked
 * (migration 1766100000000), walks each one's complete tasks with the threshold it reads at the start,
 * stores the consensus of those whose stored one does not hold, and clears the mark only if the
 * threshold is still that one; a change meanwhile leaves the project marked for the next pass.
 *
 * It is a cache fill, never needed for a right answer: readers check every stored consensus against the
 * project's threshold and compute what does not hold. A project is refreshed by one process at a time
 * (a session advisory lock on the connection the pass holds), and storing the same text twice is
 * harmless anyway. Runs in roles jobs and all.
 */
@Injectable()
export class ConsensusRefresh implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ConsensusRefresh.name);
  private timer?: NodeJS.Timeout;
  private readonly passes = new OnePass();

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    const every = this.config.CONSENSUS_REFRESH_INTERVAL_MS;
    if (every === 0) return;
    this.timer = setInterval(() => void this.tick(), every);
    this.timer.unref();
  }

  /**
   * Before the shutdown hooks, not in one: Nest runs those module by module, TypeORM's first, and its
   * pool's end waits for every client to come back, so a pass holding one went on to the end of its
   * project (a large one outlasted SHUTDOWN_TIMEOUT_MS, and the process exited 1). Here the pass stops at
   * its next slice and hands its client back, and the shutdown waits for that.
   */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.passes.stop();
  }

  /** One pass over the marked projects; returns how many tasks' consensus it stored. Skipped while a pass runs. */
  tick(): Promise<number> {
    return this.passes.run(() => this.pass());
  }

  private async pass(): Promise<number> {
    let stored = 0;
    try {
      const marked: Array<{ id: string }> = await this.db.query(
        `SELECT id FROM projects WHERE consensus_refresh_pending ORDER BY id LIMIT ${PROJECTS_PER_PASS}`,
      );
      for (const { id } of marked) {
        if (this.passes.stopped) break;
        // One project's failure is its own: the pass goes on to the next, or a project that fails every
        // time (first by id, so first in every pass) would keep every later one from being refreshed.
        stored += await this.refreshProject(id).catch((error: Error) => {
          this.logger.warn(`consensus refresh of project ${id} failed: ${error.message}`);
          return 0;
        });
      }
    } catch (error) {
      this.logger.warn(`consensus refresh pass failed: ${(error as Error).message}`);
    }
    return stored;
  }

  /** Refreshes one marked project under its lock; returns how many tasks' consensus it stored. */
  private async refreshProject(projectId: string): Promise<number> {
    const client = await pgPool(this.db).connect();
    let locked = false;
    try {
      const lock = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked', [REFRESH_LOCK_CLASS, projectId]);
      locked = lock.rows[0].locked;
      if (!locked) return 0;
      const project = await client.query<{ threshold: number }>(
        'SELECT consensus_iou_threshold AS threshold FROM projects WHERE id = $1 AND consensus_refresh_pending',
        [projectId],
      );
      if (project.rows.length === 0) return 0;
      const threshold = project.rows[0].threshold;
      const stored = await this.storeStale(client, projectId, threshold);
      if (this.passes.stopped) return stored;
      await client.query(
        'UPDATE projects SET consensus_refresh_pending = false WHERE id = $1 AND consensus_iou_threshold = $2::real',
        [projectId, threshold],
      );
      if (stored > 0) this.logger.log(`stored the consensus of ${stored} task(s) of project ${projectId} at threshold ${threshold}`);
      return stored;
    } finally {
      if (locked) await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [REFRESH_LOCK_CLASS, projectId]).catch(() => undefined);
      client.release();
    }
  }

  /** Computes and stores, page by page, the consensus of the project's complete tasks whose stored one does not hold. */
  private async storeStale(client: PoolClient, projectId: string, threshold: number): Promise<number> {
    const store = storeBack(client, threshold);
    let stored = 0;
    let sliceStart = performance.now();
    try {
      for await (const rows of completedTaskPages<StaleTaskRow>(client, projectId, STALE_TASKS_SQL, [threshold])) {
        for (const row of rows) {
          if (!row.subs) continue;
          store.computed(row.id, row.subs);
          stored++;
          if (performance.now() - sliceStart > SLICE_MS) {
            await nextTurn();
            sliceStart = performance.now();
            // A page's worth of large tasks is seconds of work: a shutdown does not wait for all of it.
            if (this.passes.stopped) break;
          }
        }
        await store.flush();
        if (this.passes.stopped) break;
      }
    } finally {
      await store.done();
    }
    return stored;
  }
}
