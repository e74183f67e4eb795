import type { CancelOutstandingResult } from '@crowdbox/contracts';
import type { EntityManager } from 'typeorm';

export type CancelResult = CancelOutstandingResult;

/**
 * How long each statement of a cancel_outstanding (or an archive, or an account's deletion, which cancel
 * the same way) may take: it ends every outstanding task of a project at once, ~1 s per 100,000 tasks
 * measured, so the pool's statement limit (30 s) would refuse a project of a few million for good.
 */
export const CANCEL_LIMIT_MS = 10 * 60_000;

/**
 * Ends every incomplete task of a project (API.md §4 cancel_outstanding), or with `taskId` that one task
 * of it (the console's cancel of one task), and the leases on them, in one transaction. Submissions
 * already made stay readable; completed tasks are untouched.
 *
 * Every other writer of a lease (submit, release, the expiry job and sweep) locks the lease and then
 * its task; a checkout locks the task and only creates its lease. So this never waits for a lease while
 * it holds a task (docs/decisions.md, "cancel_outstanding"):
 *
 * 1. the live leases its snapshot sees are locked first, holding nothing else: an in-flight submit of
 *    one of them finishes first (and counts), any later one finds it cancelled;
 * 2. then the tasks (their row locks stop new leases and submissions);
 * 3. then the leases still active end, SKIP LOCKED. A lease skipped there was taken after step 1's
 *    snapshot and is locked by a request that waits for its task: when this commits, that request ends
 *    it itself under the task's lock. A submit's lease ends `cancelled` (the submissions trigger,
 *    migration 1765900000000; 422), a release's `cancelled` (checkouts.service.ts; 200), an expiry's
 *    `expired`. Waiting for it here instead was a deadlock (40P01), and a 500 for one side.
 */
export async function cancelOutstanding(tx: EntityManager, projectId: string, taskId?: string): Promise<CancelResult> {
  // Two texts rather than `$2 IS NULL OR t.id = $2`, which a generic plan cannot use to find the one task.
  const onlyTask = taskId === undefined ? '' : 'AND t.id = $2';
  const params = taskId === undefined ? [projectId] : [projectId, taskId];
  await tx.query(
    `SELECT 1 FROM checkouts c JOIN tasks t ON t.id = c.task_id
      WHERE t.project_id = $1 ${onlyTask} AND t.completed_at IS NULL AND t.cancelled_at IS NULL AND c.state = 'active'
      ORDER BY c.id
        FOR UPDATE OF c`,
    params,
  );
  const tasks: Array<{ n: string; unspent: string | null }> = await tx.query(
    `WITH cancelled AS (
       UPDATE tasks t SET cancelled_at = now()
        WHERE t.project_id = $1 ${onlyTask} AND t.completed_at IS NULL AND t.cancelled_at IS NULL
        RETURNING (t.required_submissions - t.submission_count) * t.reward AS unspent
     )
     SELECT count(*) AS n, sum(unspent) AS unspent FROM cancelled`,
    params,
  );
  const leases: Array<{ n: string }> = await tx.query(
    `WITH ended AS (
       UPDATE checkouts SET state = 'cancelled', ended_at = now()
        WHERE state = 'active'
          AND id IN (SELECT c.id FROM checkouts c JOIN tasks t ON t.id = c.task_id
                      WHERE t.project_id = $1 ${onlyTask} AND t.cancelled_at IS NOT NULL AND c.state = 'active'
                        FOR UPDATE OF c SKIP LOCKED)
        RETURNING 1
     )
     SELECT count(*) AS n FROM ended`,
    params,
  );
  return {
    cancelled: Number(tasks[0]?.n ?? 0),
    unspent_reward_cents: Number(tasks[0]?.unspent ?? 0),
    ended_checkouts: Number(leases[0]?.n ?? 0),
  };
}
