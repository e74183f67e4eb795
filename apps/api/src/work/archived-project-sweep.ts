import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Housekeeping, type PassTimes } from '../common/housekeeping';
import { inTimedTransaction } from '../database/timed-transaction';
import { CANCEL_LIMIT_MS, cancelOutstanding } from '../projects/cancel-outstanding';

const EVERY_30_S: PassTimes = { firstMs: 30_000, everyMs: 30_000 };

/**
 * Projects archived this recently are looked at. A task reaches an archived project only from an insert
 * that was in flight when the archive committed, or from a process whose copy of the project was not yet
 * archived (CACHE_TTL_MS at most, 5 s by default): both end within a statement timeout of the archive.
 */
const LOOK_BACK = '1 hour';

/**
 * Cancels the open tasks of projects archived in the last hour (docs/decisions.md, "Archiving a
 * project"), every 30 s in the jobs role. An archive cancels its project's outstanding tasks in its own
 * transaction, which does not see a task whose insert commits after it began: such a task stayed open in
 * the archived project for good (never offered to a worker, whose list and checkout read `archived_at`
 * from the row, but counted as outstanding and committed money, and offered again after an unarchive).
 * A guard in every task insert closed that window too, at ~10 % of add_task's CPU (docs/performance.md,
 * "twenty-ninth session"); this costs the writes nothing, and such a task lives 30 s at most.
 */
@Injectable()
export class ArchivedProjectSweep extends Housekeeping {
  private readonly logger = new Logger(ArchivedProjectSweep.name);

  constructor(@InjectDataSource() private readonly db: DataSource) {
    super();
  }

  protected override passTimes(): PassTimes {
    return EVERY_30_S;
  }

  /** One pass: how many tasks it cancelled (their project's cancel, as cancel_outstanding's, one project at a time). */
  protected async pass(): Promise<number> {
    let cancelled = 0;
    try {
      // ix_projects_archived, then ix_tasks_open per project: a few rows, however many projects were ever archived.
      const projects: Array<{ id: string }> = await this.db.query(
        `SELECT p.id FROM projects p
          WHERE p.archived_at > now() - interval '${LOOK_BACK}'
            AND EXISTS (SELECT 1 FROM tasks t WHERE t.project_id = p.id AND t.completed_at IS NULL AND t.cancelled_at IS NULL)
          ORDER BY p.id`,
      );
      for (const { id } of projects) {
        if (this.stopping()) break;
        // Only while it is still archived: an unarchive since takes tasks again.
        const result = await inTimedTransaction(this.db, CANCEL_LIMIT_MS, async (tx) => {
          const [still]: Array<{ archived: boolean }> = await tx.query('SELECT archived_at IS NOT NULL AS archived FROM projects WHERE id = $1 FOR NO KEY UPDATE', [id]);
          return still?.archived ? cancelOutstanding(tx, id) : undefined;
        });
        cancelled += result?.cancelled ?? 0;
      }
    } catch (error) {
      this.logger.warn(`archived projects' sweep failed: ${(error as Error).message}`);
    }
    if (cancelled > 0) this.logger.log(`cancelled ${cancelled} tasks added to archived projects`);
    return cancelled;
  }
}
