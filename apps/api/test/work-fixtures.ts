import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';

/**
 * Test fixtures that write leases and submissions straight into the database, for states the worker
 * API cannot produce on demand (a submission dated 2024, a lease expired an hour ago, 1,205 complete
 * tasks). The lease triggers (migration 1763900000000-leases) would refuse most of these shortcuts, so
 * they run with triggers off (`session_replication_role = replica`, local to the transaction); CHECK
 * constraints still apply, so the rows must stay consistent: that is the fixtures' job.
 * Tests of the worker side itself go through /api/work, never through these.
 */
export async function asFixture<T>(db: DataSource, write: (tx: EntityManager) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.query('SET LOCAL session_replication_role = replica');
    return write(tx);
  });
}

export interface LeaseFixture {
  /** Seconds from now; negative for a lease that has already run out. */
  expiresInSeconds?: number;
  state?: 'active' | 'submitted' | 'released' | 'expired' | 'cancelled';
}

/**
 * A checkout row of `workerId` on `taskId`. An active one is counted in the task's lease hint
 * (`leased_count`, `lease_expiry_min`: migration 1764300000000) as its trigger would, since readers
 * trust the hint while none of the task's leases has expired.
 */
export async function leaseInDb(db: DataSource, taskId: string, workerId: string, options: LeaseFixture = {}): Promise<string> {
  const id = randomUUID();
  await asFixture(db, async (tx) => {
    const [{ expires_at: expiresAt }] = await tx.query(
      `INSERT INTO checkouts (id, task_id, worker_id, checked_out_at, expires_at, state)
       VALUES ($1, $2, $3, now() - interval '1 hour', now() + make_interval(secs => $4), $5) RETURNING expires_at`,
      [id, taskId, workerId, options.expiresInSeconds ?? 600, options.state ?? 'active'],
    );
    if ((options.state ?? 'active') === 'active') {
      await tx.query('UPDATE tasks SET leased_count = leased_count + 1, lease_expiry_min = LEAST(lease_expiry_min, $2) WHERE id = $1', [taskId, expiresAt]);
    }
  });
  return id;
}

export interface SubmissionFixture {
  taskId: string;
  workerId: string;
  boxes?: unknown[];
  size?: [number, number];
  reward?: number;
  /** ISO time of the submission; the task's completion time too when this submission completes it. */
  submittedAt?: string;
}

/** A submitted lease and its submission, counted on the task as the worker API would. Returns the submission id. */
export async function submitInDb(db: DataSource, f: SubmissionFixture): Promise<string> {
  const checkoutId = randomUUID();
  const submissionId = randomUUID();
  const at = f.submittedAt ?? new Date().toISOString();
  await asFixture(db, async (tx) => {
    await tx.query(
      `INSERT INTO checkouts (id, task_id, worker_id, checked_out_at, expires_at, state, ended_at)
       VALUES ($1, $2, $3, $4::timestamptz - interval '1 minute', $4::timestamptz + interval '9 minutes', 'submitted', $4)`,
      [checkoutId, f.taskId, f.workerId, at],
    );
    await tx.query(
      `INSERT INTO submissions (id, checkout_id, task_id, worker_id, boxes, image_width, image_height, reward, request_hash, created_at)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, coalesce($8, (SELECT reward FROM tasks WHERE id = $3)), 'fixture', $9)`,
      [submissionId, checkoutId, f.taskId, f.workerId, JSON.stringify(f.boxes ?? []), f.size?.[0] ?? 640, f.size?.[1] ?? 480, f.reward ?? null, at],
    );
    await tx.query(
      `UPDATE tasks SET submission_count = submission_count + 1,
              completed_at = CASE WHEN submission_count + 1 = required_submissions THEN $2::timestamptz END
        WHERE id = $1`,
      [f.taskId, at],
    );
  });
  return submissionId;
}

/** Completes a task with the submissions it has (its required count shrinks to match), at `completedAt`. */
export async function completeInDb(db: DataSource, taskId: string, completedAt = new Date().toISOString()): Promise<void> {
  await db.query('UPDATE tasks SET required_submissions = submission_count, completed_at = $2 WHERE id = $1', [taskId, completedAt]);
}

/**
 * What the lease triggers keep on a task row (migration 1764300000000: leased_count, lease_expiry_min)
 * beside what its checkouts say they should be: the active leases and the earliest of their expiries.
 */
export async function leaseHintAndTruth(db: DataSource, taskId: string): Promise<{ hint: [number, string | null]; truth: [number, string | null] }> {
  const [row] = await db.query(
    `SELECT t.leased_count, t.lease_expiry_min,
            (SELECT count(*)::int FROM checkouts c WHERE c.task_id = t.id AND c.state = 'active') AS active,
            (SELECT min(c.expires_at) FROM checkouts c WHERE c.task_id = t.id AND c.state = 'active') AS earliest
       FROM tasks t WHERE t.id = $1`,
    [taskId],
  );
  return { hint: [row.leased_count, row.lease_expiry_min?.toISOString() ?? null], truth: [row.active, row.earliest?.toISOString() ?? null] };
}
