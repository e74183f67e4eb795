// The lease and submission invariants (DESIGN.md §2), counted with SQL after a run. Each query counts
// violations, so every figure must be 0. `projectId` limits the count to one project's tasks.

const CHECKS = [
  {
    name: 'tasks with submission_count > required_submissions',
    sql: `SELECT count(*)::int AS n FROM tasks t WHERE ($1::uuid IS NULL OR t.project_id = $1) AND t.submission_count > t.required_submissions`,
  },
  {
    name: 'tasks with submission_count + active unexpired checkouts > required_submissions',
    sql: `SELECT count(*)::int AS n FROM tasks t
           WHERE ($1::uuid IS NULL OR t.project_id = $1)
             AND t.submission_count + (SELECT count(*) FROM checkouts c
                                        WHERE c.task_id = t.id AND c.state = 'active' AND c.expires_at > now())
                 > t.required_submissions`,
  },
  {
    name: '(task, worker) pairs with more than one checkout',
    sql: `SELECT count(*)::int AS n FROM (
            SELECT c.task_id, c.worker_id FROM checkouts c JOIN tasks t ON t.id = c.task_id
             WHERE ($1::uuid IS NULL OR t.project_id = $1)
             GROUP BY c.task_id, c.worker_id HAVING count(*) > 1) x`,
  },
  {
    name: '(task, worker) pairs with more than one submission',
    sql: `SELECT count(*)::int AS n FROM (
            SELECT s.task_id, s.worker_id FROM submissions s JOIN tasks t ON t.id = s.task_id
             WHERE ($1::uuid IS NULL OR t.project_id = $1)
             GROUP BY s.task_id, s.worker_id HAVING count(*) > 1) x`,
  },
  {
    name: 'tasks with submission_count <> count(submissions)',
    sql: `SELECT count(*)::int AS n FROM tasks t
            LEFT JOIN (SELECT task_id, count(*) AS n FROM submissions GROUP BY task_id) s ON s.task_id = t.id
           WHERE ($1::uuid IS NULL OR t.project_id = $1) AND t.submission_count <> coalesce(s.n, 0)`,
  },
  {
    name: 'tasks with completed_at set <> (submission_count = required_submissions)',
    sql: `SELECT count(*)::int AS n FROM tasks t
           WHERE ($1::uuid IS NULL OR t.project_id = $1)
             AND (t.completed_at IS NOT NULL) <> (t.submission_count = t.required_submissions)`,
  },
  {
    name: "submissions whose checkout is not 'submitted' (or is another task's or worker's)",
    sql: `SELECT count(*)::int AS n FROM submissions s JOIN tasks t ON t.id = s.task_id
            LEFT JOIN checkouts c ON c.id = s.checkout_id
           WHERE ($1::uuid IS NULL OR t.project_id = $1)
             AND (c.id IS NULL OR c.state <> 'submitted' OR c.task_id <> s.task_id OR c.worker_id <> s.worker_id)`,
  },
  {
    // lease_expiry_min may be early after a submit (migration 1764500000000), never late or missing.
    name: 'tasks whose leased_count / lease_expiry_min disagree with their active checkouts',
    sql: `SELECT count(*)::int AS n FROM tasks t
            LEFT JOIN (SELECT task_id, count(*) AS n, min(expires_at) AS earliest FROM checkouts
                        WHERE state = 'active' GROUP BY task_id) a ON a.task_id = t.id
           WHERE ($1::uuid IS NULL OR t.project_id = $1)
             AND (t.leased_count <> coalesce(a.n, 0) OR (t.lease_expiry_min IS NULL) <> (a.earliest IS NULL)
                  OR t.lease_expiry_min > a.earliest)`,
  },
];

/** Resolves to { checks: [{ name, violations }], total }. */
export async function countInvariantViolations(client, projectId = null) {
  const checks = [];
  for (const check of CHECKS) {
    const { rows } = await client.query(check.sql, [projectId]);
    checks.push({ name: check.name, violations: rows[0].n });
  }
  return { checks, total: checks.reduce((s, c) => s + c.violations, 0) };
}
