import type { EarningsResponse, WorkProjectResponse } from '@crowdbox/contracts';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { SessionPrincipal } from '../common/http/principal';

/** The worker's overview: where there is work for them, and what they have earned. */
@Injectable()
export class WorkSummaryService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * GET /api/work/projects: other accounts' projects with at least one task this worker could check
   * out now (open, a free slot, never leased by them). `reward` is the highest reward among those tasks.
   */
  async projects(worker: SessionPrincipal): Promise<WorkProjectResponse[]> {
    const rows: Array<{
      id: string;
      display_name: string;
      display_short_description: string;
      reward: number;
      allowed_completion_time_seconds: number;
      available: string;
    }> = await this.db.query(
      `SELECT p.id, p.display_name, p.display_short_description, max(t.reward) AS reward,
              -- The tasks' own time (add_task may set it), not the project's default: the shortest a worker may get.
              min(t.allowed_completion_time_seconds) AS allowed_completion_time_seconds, count(*) AS available
         FROM tasks t JOIN projects p ON p.id = t.project_id
        WHERE t.completed_at IS NULL AND t.cancelled_at IS NULL AND p.account_id <> $2
          AND NOT EXISTS (SELECT 1 FROM checkouts mine WHERE mine.task_id = t.id AND mine.worker_id = $1)
          AND t.submission_count + (SELECT count(*) FROM checkouts c
                                     WHERE c.task_id = t.id AND c.state = 'active' AND c.expires_at > now())
              < t.required_submissions
        GROUP BY p.id
        ORDER BY max(t.reward) DESC, p.display_name, p.id`,
      [worker.userId, worker.accountId],
    );
    return rows.map((r) => ({
      uuid: r.id,
      display_name: r.display_name,
      display_short_description: r.display_short_description,
      reward: Number(r.reward),
      allowed_completion_time_seconds: r.allowed_completion_time_seconds,
      available_task_count: Number(r.available),
    }));
  }

  /** GET /api/work/earnings: every submission is credited its task's reward when it is accepted. */
  async earnings(worker: SessionPrincipal): Promise<EarningsResponse> {
    const rows: Array<{ id: string; display_name: string; n: string; cents: string }> = await this.db.query(
      `SELECT p.id, p.display_name, count(*) AS n, sum(s.reward) AS cents
         FROM submissions s JOIN tasks t ON t.id = s.task_id JOIN projects p ON p.id = t.project_id
        WHERE s.worker_id = $1
        GROUP BY p.id
        ORDER BY max(s.created_at) DESC, p.id`,
      [worker.userId],
    );
    const projects = rows.map((r) => ({
      project_uuid: r.id,
      display_name: r.display_name,
      submission_count: Number(r.n),
      earned_cents: Number(r.cents),
    }));
    return {
      submission_count: projects.reduce((sum, p) => sum + p.submission_count, 0),
      earned_cents: projects.reduce((sum, p) => sum + p.earned_cents, 0),
      projects,
    };
  }
}
