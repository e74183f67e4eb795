import type { MigrationInterface, QueryRunner } from 'typeorm';

/** checkouts_count_change as migration 1764300000000 made it, with `lockFirst` before its update. */
function countChange(lockFirst: string): string {
  return `
      CREATE OR REPLACE FUNCTION checkouts_count_change() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        ended integer := CASE WHEN TG_OP = 'DELETE' OR NEW.state <> 'active' THEN 1 ELSE 0 END;
      BEGIN${lockFirst}
        UPDATE tasks SET leased_count = leased_count - ended,
               lease_expiry_min = (SELECT min(c.expires_at) FROM checkouts c WHERE c.task_id = OLD.task_id AND c.state = 'active')
         WHERE id = OLD.task_id;
        RETURN NULL;
      END $$`;
}

const LOCK_FIRST = `
        PERFORM 1 FROM tasks WHERE id = OLD.task_id FOR NO KEY UPDATE;`;

/**
 * A lease that leaves `active` by any way but a submit (release, expiry, cancel, delete, a changed
 * `expires_at`) recomputes its task's earliest lease expiry after it has the task row, not before.
 *
 * The trigger of migration 1764300000000 computed `lease_expiry_min` in the UPDATE that also waits for
 * the task row. A statement reads with the snapshot it took when it began, so when a checkout of the same
 * task held the row (its insert trigger updates it) and committed during the wait, the recomputed
 * minimum left that new lease out: NULL or a later expiry than the truth, which the hint must never be
 * (docs/decisions.md, "A lease count on the task row": early, never late). The lease query then skipped
 * the task on its row once that lease ran out, and its slot stayed hidden until the expiry job or the
 * sweep marked the lease. `leased_count` was right all along: it is computed from the row version the
 * update locked.
 *
 * Now the row is locked by a statement of its own, and the UPDATE that follows takes a new snapshot
 * (each statement of a plpgsql function does, in READ COMMITTED), taken after every lease of the task
 * that committed before the lock; one that commits later waits for this transaction's lock. One more
 * statement per lease that ends this way; the checkout and the submit, which this trigger leaves alone
 * (migration 1764500000000), pay nothing. A release (work/checkouts.service.ts) and cancel_outstanding
 * already hold the row when this runs; the lock is then taken at no cost.
 */
export class LeaseHintReadAfterTaskLock1766000000000 implements MigrationInterface {
  name = 'LeaseHintReadAfterTaskLock1766000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(countChange(LOCK_FIRST));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(countChange(''));
  }
}
