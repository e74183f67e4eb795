import {
  PAGE_DEFAULT,
  type ConsensusAnnotation,
  type ConsoleTaskDetail,
  type ConsoleTaskListQuery,
  type ConsoleTaskRow,
  type ProjectProgress,
  type TaskProblem,
  type TaskState,
} from '@crowdbox/contracts';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApiException } from '../common/errors/api.exception';
import { isUuid } from '../common/crypto.util';
import { afterCursorSql, cutPage, pageCursorSql, pageParams } from '../common/page-cursor';
import { ProjectsService } from '../projects/projects.service';
import { storedConsensusHolds, taskConsensus } from '../submissions/stored-consensus';
import { frameOf, peerAgreementOf, SUBMISSIONS_JSON_SQL, toWorkerSubmissions, type SubmissionRow } from '../submissions/task-results';
import { findWorkerByPseudonym } from '../submissions/find-worker';
import { workerPseudonym } from '../submissions/worker-pseudonym';

const ROW_SQL = `
  t.id AS task_uuid,
  CASE WHEN t.completed_at IS NOT NULL THEN 'complete' WHEN t.cancelled_at IS NOT NULL THEN 'cancelled' ELSE 'incomplete' END AS state,
  t.external_image_url, t.reward, t.required_submissions, t.submission_count,
  (SELECT count(*)::int FROM checkouts c WHERE c.task_id = t.id AND c.state = 'active' AND c.expires_at > now()) AS active_checkouts,
  t.problem_reports,
  t.created_at, t.completed_at, t.cancelled_at`;

/**
 * Tasks some worker gave back reporting a problem: ix_tasks_reported's predicate, so a page of them is
 * read from that index however many tasks the project has (migration 1766400000000).
 */
const REPORTED_FILTER = 't.problem_reports > 0';

const STATE_FILTER: Record<TaskState, string> = {
  incomplete: 't.completed_at IS NULL AND t.cancelled_at IS NULL',
  complete: 't.completed_at IS NOT NULL',
  cancelled: 't.cancelled_at IS NOT NULL',
};

/**
 * The task list's statement, newest first, keyset-paged (common/page-cursor.ts: $1 the project, $2 and $3
 * the cursor); with `worker`, the tasks that worker submitted to, the worker's id the parameter after those
 * (a probe of uq_submissions_task_worker per task).
 */
export function taskListSql(filter: { state?: TaskState; reported?: boolean; worker?: boolean; after?: boolean }, limit: number): string {
  const conditions = [
    filter.state ? STATE_FILTER[filter.state] : '',
    filter.reported ? REPORTED_FILTER : '',
    filter.after ? afterCursorSql('t.created_at', 't.id') : '',
    filter.worker ? `EXISTS (SELECT 1 FROM submissions ws WHERE ws.task_id = t.id AND ws.worker_id = $${filter.after ? 4 : 2})` : '',
  ]
    .filter(Boolean)
    .map((f) => `AND ${f}`);
  return `SELECT ${ROW_SQL}, ${pageCursorSql('t.created_at', 't.id')} AS cursor
            FROM tasks t
           WHERE t.project_id = $1 ${conditions.join(' ')}
           ORDER BY t.created_at DESC, t.id DESC
           LIMIT ${limit}`;
}

/** The console's task views of a project (API.md §4): progress, a paged task list, one task with boxes. */
@Injectable()
export class ConsoleTasksService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly projects: ProjectsService,
  ) {}

  async progress(accountId: string, projectUuid: string): Promise<ProjectProgress> {
    const project = await this.projects.owned(accountId, projectUuid);
    const [totals]: Array<Record<string, string>> = await this.db.query(
      `SELECT count(*) AS total,
              count(*) FILTER (WHERE completed_at IS NOT NULL) AS complete,
              count(*) FILTER (WHERE completed_at IS NULL AND cancelled_at IS NULL) AS outstanding,
              count(*) FILTER (WHERE cancelled_at IS NOT NULL) AS cancelled,
              coalesce(sum(submission_count), 0) AS submissions,
              coalesce(sum((required_submissions - submission_count) * reward)
                       FILTER (WHERE completed_at IS NULL AND cancelled_at IS NULL), 0) AS committed,
              -- What was paid, from the task rows this statement reads anyway (project-stats.ts says why it equals the submissions' sum).
              coalesce(sum(submission_count::bigint * reward), 0) AS paid,
              count(*) FILTER (WHERE completed_at IS NULL AND cancelled_at IS NULL AND problem_reports > 0) AS reported
         FROM tasks WHERE project_id = $1`,
      [project.id],
    );
    // `d` is a UTC day's midnight as a timestamp without time zone; compared with a timestamptz as it is,
    // PostgreSQL would read it in the session's TimeZone (the server's or the database's setting), and a
    // day's counts would shift by that offset under a UTC label. `AT TIME ZONE 'UTC'` makes it the instant.
    const daily: Array<{ day: string; created: string; completed: string }> = await this.db.query(
      `SELECT d::date::text AS day,
              (SELECT count(*) FROM tasks WHERE project_id = $1
                  AND created_at >= d AT TIME ZONE 'UTC' AND created_at < (d + interval '1 day') AT TIME ZONE 'UTC') AS created,
              (SELECT count(*) FROM tasks WHERE project_id = $1
                  AND completed_at >= d AT TIME ZONE 'UTC' AND completed_at < (d + interval '1 day') AT TIME ZONE 'UTC') AS completed
         FROM generate_series(date_trunc('day', now() AT TIME ZONE 'UTC') - interval '29 days',
                              date_trunc('day', now() AT TIME ZONE 'UTC'), interval '1 day') AS d`,
      [project.id],
    );
    return {
      tasks: {
        total: Number(totals.total),
        complete: Number(totals.complete),
        outstanding: Number(totals.outstanding),
        cancelled: Number(totals.cancelled),
        reported: Number(totals.reported),
      },
      submissions: Number(totals.submissions),
      paid_cents: Number(totals.paid),
      committed_cents: Number(totals.committed),
      daily: daily.map((d) => ({ day: d.day, created: Number(d.created), completed: Number(d.completed) })),
    };
  }

  /**
   * Newest first, keyset-paged: `before` is the previous page's `next_cursor` (common/page-cursor.ts).
   * `reported=true` keeps the tasks some worker gave back reporting a problem; `worker` those that worker
   * (a pseudonym of the project's results) submitted to: none for a name of nobody there.
   */
  async list(accountId: string, projectUuid: string, query: ConsoleTaskListQuery): Promise<{ tasks: ConsoleTaskRow[]; next_cursor: string | null }> {
    const project = await this.projects.owned(accountId, projectUuid);
    const limit = query.limit ?? PAGE_DEFAULT;
    const workerId = query.worker === undefined ? undefined : await findWorkerByPseudonym(this.db, project.id, query.worker);
    if (query.worker !== undefined && workerId === undefined) return { tasks: [], next_cursor: null };
    const filter = { state: query.state, reported: query.reported === 'true', worker: workerId !== undefined, after: query.before !== undefined };
    const rows: Array<Omit<ConsoleTaskRow, 'created_at' | 'completed_at' | 'cancelled_at'> & { created_at: Date; completed_at: Date | null; cancelled_at: Date | null; cursor: string }> =
      await this.db.query(taskListSql(filter, limit + 1), [...pageParams(project.id, query.before), ...(workerId === undefined ? [] : [workerId])]);
    const page = cutPage(rows, limit);
    return { tasks: page.rows.map(({ cursor: _cursor, ...row }) => toRow(row)), next_cursor: page.next_cursor };
  }

  async detail(accountId: string, projectUuid: string, taskUuid: string): Promise<ConsoleTaskDetail> {
    const project = await this.projects.owned(accountId, projectUuid);
    if (!isUuid(taskUuid)) throw ApiException.notFound('task not found');
    const rows: Array<
      Record<string, unknown> & {
        // The project's threshold as the database has it, not the cached project's: a node that missed a
        // change's invalidation computed the consensus of the old one and stored it over the right one.
        threshold: number;
        subs: SubmissionRow[];
        blocked: string[];
        consensus: ConsensusAnnotation[] | null;
        prompt: string;
        created_at: Date;
        completed_at: Date | null;
        cancelled_at: Date | null;
      }
    > = await this.db.query(
      `SELECT ${ROW_SQL}, t.prompt, ${SUBMISSIONS_JSON_SQL}, p.consensus_iou_threshold AS threshold,
              CASE WHEN ${storedConsensusHolds('p.consensus_iou_threshold')} THEN t.consensus END AS consensus,
              ARRAY(SELECT s.worker_id FROM submissions s JOIN worker_blocks wb ON wb.worker_id = s.worker_id AND wb.account_id = $3
                     WHERE s.task_id = t.id) AS blocked
         FROM tasks t JOIN projects p ON p.id = t.project_id WHERE t.id = $1 AND t.project_id = $2`,
      [taskUuid, project.id, accountId],
    );
    const row = rows[0];
    if (!row) throw ApiException.notFound('task not found');
    const { subs, blocked, prompt, consensus, threshold, ...rest } = row;
    const problems: Array<{ problem: TaskProblem; count: number; last_reported_at: Date }> = await this.db.query(
      `SELECT problem, count(*)::int AS count, max(coalesce(ended_at, expires_at)) AS last_reported_at
         FROM checkouts WHERE task_id = $1 AND problem IS NOT NULL
        GROUP BY problem ORDER BY count DESC, last_reported_at DESC`,
      [taskUuid],
    );
    return {
      ...toRow(rest as never),
      prompt,
      labels: project.labels,
      frame: frameOf(subs),
      problems: problems.map((p) => ({ problem: p.problem, count: p.count, last_reported_at: p.last_reported_at.toISOString() })),
      results: {
        task_uuid: taskUuid,
        completed: row.completed_at !== null,
        completed_at: row.completed_at?.toISOString() ?? null,
        annotations: row.completed_at ? await taskConsensus(this.db, { id: taskUuid, consensus, subs }, threshold) : [],
        submissions: toWorkerSubmissions(project.id, subs),
      },
      blocked_workers: blocked.map((workerId) => workerPseudonym(project.id, workerId)),
      peer_agreement: peerAgreementOf(subs, threshold).map((a) => ({
        worker: workerPseudonym(project.id, a.worker),
        boxes: a.boxes,
        peer_boxes: a.peerBoxes,
        matched: a.matched,
      })),
    };
  }
}

function toRow(row: Omit<ConsoleTaskRow, 'created_at' | 'completed_at' | 'cancelled_at'> & { created_at: Date; completed_at: Date | null; cancelled_at: Date | null }): ConsoleTaskRow {
  return {
    task_uuid: row.task_uuid,
    state: row.state,
    external_image_url: row.external_image_url,
    reward: row.reward,
    required_submissions: row.required_submissions,
    submission_count: row.submission_count,
    active_checkouts: row.active_checkouts,
    problem_reports: row.problem_reports,
    created_at: row.created_at.toISOString(),
    completed_at: row.completed_at?.toISOString() ?? null,
    cancelled_at: row.cancelled_at?.toISOString() ?? null,
  };
}
