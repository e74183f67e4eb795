import type { DataSource } from 'typeorm';

/** The live figures of a project that the requester API reports. */
export interface ProjectStats {
  hasPublishedTasks: boolean;
  availableTaskCount: number;
  averageOutstandingTaskRewardCents: number;
  lifetimePaymentsToWorkersCents: number;
}

/** A project without tasks: a new one. */
export const NO_TASKS: ProjectStats = {
  hasPublishedTasks: false,
  availableTaskCount: 0,
  averageOutstandingTaskRewardCents: 0,
  lifetimePaymentsToWorkersCents: 0,
};

/**
 * Figures for several projects in one statement ($1 their ids). A task is available while it is open and
 * has a slot: submissions plus active, unexpired leases below required_submissions (expired leases count
 * as free whether or not the expiry job has run). The task row's lease hint (migration 1764300000000:
 * `leased_count` active leases, `lease_expiry_min` a lower bound of their expiries) gives that count
 * exactly when there is no lease or none has expired, so only a task with an expired lease not yet swept
 * has its leases counted: a probe of checkouts per open task made this statement ~0.4 s of its 0.7 s on
 * a project with 200,000 open tasks (docs/decisions.md "Project figures at scale"). The open tasks are
 * read once for the count and the mean reward. What was paid is each task's submissions times its
 * reward, read from the task rows: a submission is paid its task's reward (the submit copies it, and
 * nothing changes a task's reward), and submission_count is the number of its submissions (a deferred
 * check, migration 1763900000000). Summing the submissions themselves joined every submission of the
 * database to the project's tasks: a sequential scan of the largest table at each read. Exported for the
 * tests of its plan.
 */
/**
 * Whether the open task `t` has a free slot: its submissions and live leases below
 * required_submissions, the lease hint standing in for a probe of checkouts (see PROJECT_STATS_SQL). The
 * one availability rule of a project's figures and of the worker's list (work/work-summary.service.ts).
 */
export const TASK_HAS_FREE_SLOT_SQL = `t.submission_count
    + CASE WHEN t.leased_count = 0 OR t.lease_expiry_min > now() THEN t.leased_count
           ELSE (SELECT count(*) FROM checkouts c WHERE c.task_id = t.id AND c.state = 'active' AND c.expires_at > now())
      END
    < t.required_submissions`;

export const PROJECT_STATS_SQL = `
  SELECT p.id,
         EXISTS (SELECT 1 FROM tasks t WHERE t.project_id = p.id) AS has_tasks,
         o.available,
         o.avg_reward,
         (SELECT coalesce(sum(t.submission_count::bigint * t.reward), 0) FROM tasks t WHERE t.project_id = p.id) AS paid
    FROM projects p
   CROSS JOIN LATERAL (
     SELECT count(*) FILTER (WHERE ${TASK_HAS_FREE_SLOT_SQL}) AS available,
            round(avg(t.reward)) AS avg_reward
       FROM tasks t
      WHERE t.project_id = p.id AND t.completed_at IS NULL AND t.cancelled_at IS NULL) o
   WHERE p.id = ANY($1::uuid[])`;

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
  return stats.get(id) ?? NO_TASKS;
}
