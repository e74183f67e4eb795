import type { EarningsResponse, WorkProjectResponse } from '@crowdbox/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { SessionPrincipal } from '../common/http/principal';
import { TtlCache } from '../common/ttl-cache';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';

/** How long a worker's list of projects is answered from memory (at most CACHE_TTL_MS). */
const PROJECTS_CACHE_MS = 2_000;
const MAX_CACHED_LISTS = 10_000;
/**
 * At most this many characters of lists together (`workListChars`; ~32 MB of UTF-16 and the objects
 * around them). A list has one entry per project with a task the worker could take, unpaged, and its
 * display name and description are the requesters' (up to 1,200 characters): a count of lists alone let
 * 10,000 workers' lists of a thousand projects each hold gigabytes. A list over the whole bound is not
 * kept at all; that worker's calls each run the aggregate, as they did before the cache.
 */
export const MAX_CACHED_LIST_CHARS = 16 * 1024 * 1024;
/** What an entry holds besides its two texts, counted in characters: the uuid, the numbers, the object. */
const ENTRY_CHARS = 150;

/** About what a cached list holds, in characters: its projects' display names and descriptions dominate. */
export function workListChars(list: WorkProjectResponse[]): number {
  return list.reduce((sum, p) => sum + ENTRY_CHARS + p.display_name.length + p.display_short_description.length, 1);
}

/** The worker's overview: where there is work for them, and what they have earned. */
@Injectable()
export class WorkSummaryService {
  /**
   * Each worker's GET /api/work/projects for PROJECTS_CACHE_MS, by user id: the list is the worker's own
   * (their account's projects and the tasks they ever leased are left out), so it cannot be shared, but
   * a session asking again and again gets the same answer without the aggregate over every open task.
   * The worker's own checkout, submit and release forget it (WorkController), so it never hides what
   * they just did; others' changes show within PROJECTS_CACHE_MS.
   */
  private readonly projectLists: TtlCache<string, WorkProjectResponse[]>;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.projectLists = new TtlCache(Math.min(PROJECTS_CACHE_MS, config.CACHE_TTL_MS), MAX_CACHED_LISTS, {
      maxSize: MAX_CACHED_LIST_CHARS,
      sizeOf: workListChars,
    });
  }

  /**
   * GET /api/work/projects: other accounts' projects with at least one task this worker could check
   * out now (open, a free slot, never leased by them), none of an account that blocked them. `reward`
   * and `min_reward` are the highest and the lowest reward among those tasks.
   */
  async projects(worker: SessionPrincipal): Promise<WorkProjectResponse[]> {
    return (await this.projectLists.get(worker.userId, () => this.loadProjects(worker))) ?? [];
  }

  /** Forgets this worker's cached list, after something they did that changes it. */
  forgetProjects(worker: SessionPrincipal): void {
    this.projectLists.delete(worker.userId);
  }

  private async loadProjects(worker: SessionPrincipal): Promise<WorkProjectResponse[]> {
    const rows: Array<{
      id: string;
      display_name: string;
      display_short_description: string;
      reward: number;
      min_reward: number;
      allowed_completion_time_seconds: number;
      available: string;
    }> = await this.db.query(
      `SELECT p.id, p.display_name, p.display_short_description, max(t.reward) AS reward, min(t.reward) AS min_reward,
              -- The tasks' own time (add_task may set it), not the project's default: the shortest a worker may get.
              min(t.allowed_completion_time_seconds) AS allowed_completion_time_seconds, count(*) AS available
         FROM tasks t JOIN projects p ON p.id = t.project_id
        WHERE t.completed_at IS NULL AND t.cancelled_at IS NULL AND p.account_id <> $2 AND p.archived_at IS NULL
          AND NOT EXISTS (SELECT 1 FROM worker_blocks wb WHERE wb.account_id = p.account_id AND wb.worker_id = $1)
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
      min_reward: Number(r.min_reward),
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
