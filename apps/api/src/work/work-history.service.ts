import { PAGE_DEFAULT, type WorkSubmissionResponse, type WorkSubmissionsPage, type WorkSubmissionsQuery } from '@crowdbox/contracts';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { SessionPrincipal } from '../common/http/principal';
import { afterCursorSql, cutPage, pageCursorSql, pageParams } from '../common/page-cursor';

/** The columns workerSubmissionsSql reads beside the caller's own, and its cursor. */
export interface WorkerSubmissionHead {
  id: string;
  created_at: Date;
  project_id: string;
  display_name: string;
  task_id: string;
  cursor: string;
}

/** How the history and the data file answer those columns. */
export function submissionHead(row: WorkerSubmissionHead): Pick<WorkSubmissionResponse, 'submission_id' | 'submitted_at' | 'project' | 'task_uuid'> {
  return {
    submission_id: row.id,
    submitted_at: row.created_at.toISOString(),
    project: { uuid: row.project_id, display_name: row.display_name },
    task_uuid: row.task_id,
  };
}

interface HistoryRow extends WorkerSubmissionHead {
  box_count: number;
  reward: number;
  task_complete: boolean;
  task_cancelled: boolean;
}

/**
 * A page of worker $1's submissions, newest first, with `columns` beside the id, time, project and task
 * (`s` the submission, `t` its task, `p` the project), after the cursor ($2, $3) when `afterCursor`: the
 * worker history's pages and the account's data file (account-export/) read the same way.
 */
export const workerSubmissionsSql = (columns: string, afterCursor: boolean, limit: number): string =>
  `SELECT s.id, s.created_at, p.id AS project_id, p.display_name, s.task_id, ${columns},
          ${pageCursorSql('s.created_at', 's.id')} AS cursor
     FROM submissions s JOIN tasks t ON t.id = s.task_id JOIN projects p ON p.id = t.project_id
    WHERE s.worker_id = $1 ${afterCursor ? `AND ${afterCursorSql('s.created_at', 's.id')}` : ''}
    ORDER BY s.created_at DESC, s.id DESC
    LIMIT ${limit}`;

/** The worker's record of their own past work (docs/decisions.md, "Worker history"). */
@Injectable()
export class WorkHistoryService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * GET /api/work/submissions: the worker's submissions, newest first, keyset-paged on (created_at, id)
   * through ix_submissions_worker (worker_id, created_at): a backward scan from the cursor's moment, the
   * few rows of one moment sorted by id, so a page costs the same at the 100,000th submission as at the first.
   */
  async submissions(worker: SessionPrincipal, query: WorkSubmissionsQuery): Promise<WorkSubmissionsPage> {
    const limit = query.limit ?? PAGE_DEFAULT;
    const rows: HistoryRow[] = await this.db.query(
      workerSubmissionsSql(
        `jsonb_array_length(s.boxes) AS box_count, s.reward, t.completed_at IS NOT NULL AS task_complete,
         t.completed_at IS NULL AND t.cancelled_at IS NOT NULL AS task_cancelled`,
        query.before !== undefined,
        limit + 1,
      ),
      pageParams(worker.userId, query.before),
    );
    const page = cutPage(rows, limit);
    return { data: page.rows.map(toWorkSubmission), next_cursor: page.next_cursor };
  }
}

function toWorkSubmission(row: HistoryRow): WorkSubmissionResponse {
  return {
    ...submissionHead(row),
    box_count: Number(row.box_count),
    reward: Number(row.reward),
    task_complete: row.task_complete,
    task_cancelled: row.task_cancelled,
  };
}
