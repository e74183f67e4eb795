import { WORKER_STATS_TASKS, type ProjectWorkerRow, type ProjectWorkersResponse } from '@crowdbox/contracts';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ProjectsService } from '../projects/projects.service';
import { peerAgreementOf, SUBMISSIONS_JSON_SQL, type SubmissionRow } from '../submissions/task-results';
import { workerPseudonym } from '../submissions/worker-pseudonym';

/** One worker's sums over the tasks read. */
interface Tally {
  submissions: number;
  lastSubmittedAt: string;
  compared: number;
  boxes: number;
  peerBoxes: number;
  matched: number;
}

const ratio = (part: number, whole: number): number | null => (whole === 0 ? null : Math.round((part / whole) * 1000) / 1000);

/** Lowest agreement first, those without one last, then the most submissions, then by name. */
function byConcern(a: ProjectWorkerRow, b: ProjectWorkerRow): number {
  if (a.agreement !== b.agreement) {
    if (a.agreement === null) return 1;
    if (b.agreement === null) return -1;
    return a.agreement - b.agreement;
  }
  return b.submissions - a.submissions || (a.worker < b.worker ? -1 : 1);
}

/**
 * GET /api/console/projects/:uuid/workers (docs/decisions.md, "Worker agreement"): how each worker of
 * the project agrees with the others, over its latest WORKER_STATS_TASKS completed tasks, so a requester
 * can find the careless worker to block. Read on demand from the stored submissions: one indexed read of
 * at most that many tasks, the comparison in this process (libs/boxes), nothing kept.
 */
@Injectable()
export class ProjectWorkersService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly projects: ProjectsService,
  ) {}

  async workers(accountId: string, projectUuid: string): Promise<ProjectWorkersResponse> {
    const project = await this.projects.owned(accountId, projectUuid);
    const tasks: Array<{ subs: SubmissionRow[] }> = await this.db.query(
      `SELECT ${SUBMISSIONS_JSON_SQL} FROM tasks t
        WHERE t.project_id = $1 AND t.completed_at IS NOT NULL
        ORDER BY t.completed_at DESC LIMIT $2`,
      [project.id, WORKER_STATS_TASKS],
    );
    const tallies = new Map<string, Tally>();
    for (const { subs } of tasks) {
      for (const s of subs) {
        const tally = tallies.get(s.worker_id) ?? { submissions: 0, lastSubmittedAt: s.created_at, compared: 0, boxes: 0, peerBoxes: 0, matched: 0 };
        tally.submissions++;
        if (Date.parse(s.created_at) > Date.parse(tally.lastSubmittedAt)) tally.lastSubmittedAt = s.created_at;
        tallies.set(s.worker_id, tally);
      }
      for (const a of peerAgreementOf(subs, project.consensusIouThreshold)) {
        const tally = tallies.get(a.worker) as Tally;
        tally.compared++;
        tally.boxes += a.boxes;
        tally.peerBoxes += a.peerBoxes;
        tally.matched += a.matched;
      }
    }
    const blocks: Array<{ id: string; worker_id: string }> = await this.db.query(
      'SELECT id, worker_id FROM worker_blocks WHERE account_id = $1 AND worker_id = ANY($2::uuid[])',
      [accountId, [...tallies.keys()]],
    );
    const blockOf = new Map(blocks.map((b) => [b.worker_id, b.id]));
    const workers = [...tallies].map(([workerId, t]): ProjectWorkerRow => ({
      worker: workerPseudonym(project.id, workerId),
      submissions: t.submissions,
      last_submitted_at: new Date(t.lastSubmittedAt).toISOString(),
      compared_tasks: t.compared,
      boxes: t.boxes,
      peer_boxes: t.peerBoxes,
      matched: t.matched,
      // Two workers who both drew nothing on the same images agree: 1, not 0/0.
      agreement: t.compared === 0 ? null : t.boxes + t.peerBoxes === 0 ? 1 : ratio(2 * t.matched, t.boxes + t.peerBoxes),
      precision: ratio(t.matched, t.boxes),
      recall: ratio(t.matched, t.peerBoxes),
      block_id: blockOf.get(workerId) ?? null,
    }));
    return { tasks_read: tasks.length, workers: workers.sort(byConcern) };
  }
}
