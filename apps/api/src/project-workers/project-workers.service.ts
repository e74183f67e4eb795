import { WORKER_STATS_TASKS, type ProjectWorkerRow, type ProjectWorkersResponse } from '@crowdbox/contracts';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { afterCursorSql, pageCursorSql, pageParams } from '../common/page-cursor';
import { ProjectsService } from '../projects/projects.service';
import { comparisonWeight, peerAgreementOf, SUBMISSIONS_JSON_SQL, type SubmissionRow } from '../submissions/task-results';
import { workerPseudonym } from '../submissions/worker-pseudonym';

/** One worker's sums over the tasks read. */
interface Tally {
  submissions: number;
  lastSubmittedAt: string;
  compared: number;
  boxes: number;
  peerBoxes: number;
  matched: number;
}

/** Tasks read per statement: a page of tasks with up to 4,000 boxes each stays a few MB. */
const PAGE = 100;

/**
 * How many box pairs the comparisons of one answer may weigh (a task's `comparisonWeight`). A project of a few boxes per task reads its
 * 1,000 tasks within it (3 workers of 10 boxes: 600 a task); one of hundreds of boxes per worker stops
 * after fewer tasks (3 workers of 500: 1,500,000 a task). Measured: 3 workers of 500 boxes that all
 * overlap take ~450 ms to compare, 500 apart in a grid ~100 ms, so an answer computes for well under a
 * second however the boxes lie, and yields to other requests between tasks.
 */
export const AGREEMENT_PAIR_BUDGET = 1_000_000;

const ratio = (part: number, whole: number): number | null => (whole === 0 ? null : Math.round((part / whole) * 1000) / 1000);

/** Lowest agreement first, those without one last, then the most submissions, then by name. */
function byConcern(a: ProjectWorkerRow, b: ProjectWorkerRow): number {
  if (a.agreement !== b.agreement) {
    if (a.agreement === null) return 1;
    if (b.agreement === null) return -1;
    return a.agreement - b.agreement;
  }
  return b.submissions - a.submissions || (a.worker < b.worker ? -1 : 1);
}

/**
 * GET /api/console/projects/:uuid/workers (docs/decisions.md, "Worker agreement"): how each worker of
 * the project agrees with the others, over its latest WORKER_STATS_TASKS completed tasks, so a requester
 * can find the careless worker to block. Read on demand from the stored submissions: one indexed read of
 * at most that many tasks, the comparison in this process (libs/boxes), nothing kept.
 */
@Injectable()
export class ProjectWorkersService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly projects: ProjectsService,
  ) {}

  async workers(accountId: string, projectUuid: string): Promise<ProjectWorkersResponse> {
    const project = await this.projects.owned(accountId, projectUuid);
    const threshold = await this.projects.currentThreshold(project);
    const tasks = await this.latestTasks(project.id);
    const tallies = new Map<string, Tally>();
    for (const subs of tasks) {
      // Between tasks, other requests of this process go first: the comparisons are CPU work.
      await new Promise((resolve) => setImmediate(resolve));
      for (const s of subs) {
        const tally = tallies.get(s.worker_id) ?? { submissions: 0, lastSubmittedAt: s.created_at, compared: 0, boxes: 0, peerBoxes: 0, matched: 0 };
        tally.submissions++;
        if (Date.parse(s.created_at) > Date.parse(tally.lastSubmittedAt)) tally.lastSubmittedAt = s.created_at;
        tallies.set(s.worker_id, tally);
      }
      for (const a of peerAgreementOf(subs, threshold)) {
        const tally = tallies.get(a.worker) as Tally;
        tally.compared++;
        tally.boxes += a.boxes;
        tally.peerBoxes += a.peerBoxes;
        tally.matched += a.matched;
      }
    }
    const blocks: Array<{ id: string; worker_id: string }> = await this.db.query(
      'SELECT id, worker_id FROM worker_blocks WHERE account_id = $1 AND worker_id = ANY($2::uuid[])',
      [accountId, [...tallies.keys()]],
    );
    const blockOf = new Map(blocks.map((b) => [b.worker_id, b.id]));
    const workers = [...tallies].map(([workerId, t]): ProjectWorkerRow => ({
      worker: workerPseudonym(project.id, workerId),
      submissions: t.submissions,
      last_submitted_at: new Date(t.lastSubmittedAt).toISOString(),
      compared_tasks: t.compared,
      boxes: t.boxes,
      peer_boxes: t.peerBoxes,
      matched: t.matched,
      // Two workers who both drew nothing on the same images agree: 1, not 0/0.
      agreement: t.compared === 0 ? null : t.boxes + t.peerBoxes === 0 ? 1 : ratio(2 * t.matched, t.boxes + t.peerBoxes),
      precision: ratio(t.matched, t.boxes),
      recall: ratio(t.matched, t.peerBoxes),
      block_id: blockOf.get(workerId) ?? null,
    }));
    return { tasks_read: tasks.length, workers: workers.sort(byConcern) };
  }

  /**
   * The submissions of the project's latest completed tasks, newest first: WORKER_STATS_TASKS of them, or
   * fewer when the next would take the comparisons past AGREEMENT_PAIR_BUDGET (the newest is always read).
   */
  private async latestTasks(projectId: string): Promise<SubmissionRow[][]> {
    const tasks: SubmissionRow[][] = [];
    let weight = 0;
    let before: string | undefined;
    while (tasks.length < WORKER_STATS_TASKS) {
      // Keyset pages as every list's (common/page-cursor.ts), whose cursor keeps the microseconds.
      const rows: Array<{ subs: SubmissionRow[]; cursor: string }> = await this.db.query(
        `SELECT ${SUBMISSIONS_JSON_SQL}, ${pageCursorSql('t.completed_at', 't.id')} AS cursor FROM tasks t
          WHERE t.project_id = $1 AND t.completed_at IS NOT NULL ${before === undefined ? '' : `AND ${afterCursorSql('t.completed_at', 't.id')}`}
          ORDER BY t.completed_at DESC, t.id DESC LIMIT ${Math.min(PAGE, WORKER_STATS_TASKS - tasks.length)}`,
        pageParams(projectId, before),
      );
      for (const row of rows) {
        weight += comparisonWeight(row.subs);
        if (weight > AGREEMENT_PAIR_BUDGET && tasks.length > 0) return tasks;
        tasks.push(row.subs);
      }
      if (rows.length === 0) return tasks;
      before = rows[rows.length - 1].cursor;
    }
    return tasks;
  }
}
