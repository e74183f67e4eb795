import type { CancelOutstandingResult } from '@crowdbox/contracts';
import type { EntityManager } from 'typeorm';

export type CancelResult = CancelOutstandingResult;

/**
 * Ends every incomplete task of a project (API.md §4 cancel_outstanding) and the leases on them, in
 * one transaction. Submissions already made stay readable; completed tasks are untouched.
 *
 * Locks in the order every other writer takes them, a lease before its task: a submit, a release and
 * the expiry job lock the checkout row and then update the task. Taking the tasks first (as this did)
 * deadlocked with a submit that had locked its lease and waited for its task, and one of the two
 * failed with a 500. So the live leases are locked first; then the tasks (whose row locks stop new
 * leases and submissions); then the leases end, with any taken in between.
 */
export async function cancelOutstanding(tx: EntityManager, projectId: string): Promise<CancelResult> {
  await tx.query(
    `SELECT 1 FROM checkouts c JOIN tasks t ON t.id = c.task_id
      WHERE t.project_id = $1 AND t.completed_at IS NULL AND t.cancelled_at IS NULL AND c.state = 'active'
      ORDER BY c.id
        FOR UPDATE OF c`,
    [projectId],
  );
  const tasks: Array<{ n: string; unspent: string | null }> = await tx.query(
    `WITH cancelled AS (
       UPDATE tasks SET cancelled_at = now()
        WHERE project_id = $1 AND completed_at IS NULL AND cancelled_at IS NULL
        RETURNING (required_submissions - submission_count) * reward AS unspent
     )
     SELECT count(*) AS n, sum(unspent) AS unspent FROM cancelled`,
    [projectId],
  );
  const leases: Array<{ n: string }> = await tx.query(
    `WITH ended AS (
       UPDATE checkouts c SET state = 'cancelled', ended_at = now()
         FROM tasks t
        WHERE t.id = c.task_id AND t.project_id = $1 AND t.cancelled_at IS NOT NULL AND c.state = 'active'
        RETURNING 1
     )
     SELECT count(*) AS n FROM ended`,
    [projectId],
  );
  return {
    cancelled: Number(tasks[0]?.n ?? 0),
    unspent_reward_cents: Number(tasks[0]?.unspent ?? 0),
    ended_checkouts: Number(leases[0]?.n ?? 0),
  };
}
