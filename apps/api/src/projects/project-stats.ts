import type { DataSource } from 'typeorm';

/** The live figures of a project that the requester API reports. */
export interface ProjectStats {
  hasPublishedTasks: boolean;
  availableTaskCount: number;
  averageOutstandingTaskRewardCents: number;
  lifetimePaymentsToWorkersCents: number;
}

const EMPTY: ProjectStats = {
  hasPublishedTasks: false,
  availableTaskCount: 0,
  averageOutstandingTaskRewardCents: 0,
  lifetimePaymentsToWorkersCents: 0,
};

/**
 * Figures for several projects in one statement ($1 their ids). A task is available while it is open and
 * has a slot: submissions plus active, unexpired leases below required_submissions (expired leases count
 * as free whether or not the expiry job has run). What was paid is each task's submissions times its
 * reward, read from the task rows: a submission is paid its task's reward (the submit copies it, and
 * nothing changes a task's reward), and submission_count is the number of its submissions (a deferred
 * check, migration 1763900000000). Summing the submissions themselves joined every submission of the
 * database to the project's tasks: a sequential scan of the largest table at each read. Exported for the
 * test of its plan.
 */
export const PROJECT_STATS_SQL = `
  SELECT p.id,
         EXISTS (SELECT 1 FROM tasks t WHERE t.project_id = p.id) AS has_tasks,
         (SELECT count(*) FROM tasks t
           WHERE t.project_id = p.id AND t.completed_at IS NULL AND t.cancelled_at IS NULL
             AND t.submission_count + (SELECT count(*) FROM checkouts c
                                        WHERE c.task_id = t.id AND c.state = 'active' AND c.expires_at > now())
                 < t.required_submissions) AS available,
         (SELECT round(avg(t.reward)) FROM tasks t
           WHERE t.project_id = p.id AND t.completed_at IS NULL AND t.cancelled_at IS NULL) AS avg_reward,
         (SELECT coalesce(sum(t.submission_count::bigint * t.reward), 0) FROM tasks t WHERE t.project_id = p.id) AS paid
    FROM projects p WHERE p.id = ANY($1::uuid[])`;

/** Figures for several projects in one query (PROJECT_STATS_SQL). */
export async function loadProjectStats(db: DataSource, projectIds: string[]): Promise<Map<string, ProjectStats>> {
  const stats = new Map<string, ProjectStats>();
  if (projectIds.length === 0) return stats;
  const rows: Array<{ id: string; has_tasks: boolean; available: string; avg_reward: string | null; paid: string }> = await db.query(
    PROJECT_STATS_SQL,
    [projectIds],
  );
  for (const row of rows) {
    stats.set(row.id, {
      hasPublishedTasks: row.has_tasks,
      availableTaskCount: Number(row.available),
      averageOutstandingTaskRewardCents: row.avg_reward === null ? 0 : Number(row.avg_reward),
      lifetimePaymentsToWorkersCents: Number(row.paid),
    });
  }
  return stats;
}

export function statsOrEmpty(stats: Map<string, ProjectStats>, id: string): ProjectStats {
  return stats.get(id) ?? EMPTY;
}
