import type { ProjectAnnotationsEntry, TaskAnnotationsRecord } from '@crowdbox/contracts';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApiException } from '../common/errors/api.exception';
import { isUuid } from '../common/crypto.util';
import type { ApiKeyPrincipal } from '../common/http/principal';
import { Project } from '../projects/project.entity';
import { ProjectsService } from '../projects/projects.service';
import { worktaskNotFound } from '../tasks/tasks.service';
import { TestModeService } from '../test-mode/test-mode.service';
import { cocoExport } from './coco-export';
import { SUBMISSIONS_JSON_SQL, consensusOf, toWorkerSubmissions, type SubmissionRow } from './task-results';

/** Rows fetched per round trip when streaming a project's results. */
export const EXPORT_BATCH = 1000;

export interface CompletedTaskRow {
  id: string;
  external_image_url: string | null;
  completed_at: string;
  cursor: string;
  subs: SubmissionRow[];
}

export type ExportFormat = 'json' | 'coco';

/** Results for requesters: one task's record, or a whole project's complete tasks, streamed. */
@Injectable()
export class AnnotationsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly projects: ProjectsService,
    private readonly testMode: TestModeService,
  ) {}

  /** GET /api/v1/tasks/:uuid/annotations */
  async taskAnnotations(key: ApiKeyPrincipal, uuid: string, withSubmissions: boolean): Promise<TaskAnnotationsRecord> {
    if (!isUuid(uuid)) throw worktaskNotFound();
    if (key.mode === 'test') return this.testMode.taskAnnotations(key, uuid, withSubmissions);
    const rows: Array<{ id: string; project_id: string; completed_at: Date | null; threshold: number; subs: SubmissionRow[] }> =
      await this.db.query(
        `SELECT t.id, t.project_id, t.completed_at, p.consensus_iou_threshold AS threshold, ${SUBMISSIONS_JSON_SQL}
           FROM tasks t JOIN projects p ON p.id = t.project_id
          WHERE t.id = $1 AND p.account_id = $2`,
        [uuid, key.accountId],
      );
    const row = rows[0];
    if (!row) throw worktaskNotFound();
    const record: TaskAnnotationsRecord = {
      task_uuid: row.id,
      completed: row.completed_at !== null,
      completed_at: row.completed_at?.toISOString() ?? null,
      annotations: row.completed_at ? consensusOf(row.subs, row.threshold) : [],
    };
    if (withSubmissions) record.submissions = toWorkerSubmissions(row.project_id, row.subs);
    return record;
  }

  /**
   * GET /api/v1/projects/:uuid/annotations: checks access first (so errors are ordinary responses),
   * then returns the body as chunks that are produced batch by batch, never the whole list in memory.
   */
  async projectAnnotations(
    key: ApiKeyPrincipal,
    uuid: string,
    withSubmissions: boolean,
    format: ExportFormat,
  ): Promise<AsyncIterable<string>> {
    if (key.mode === 'test') {
      if (!isUuid(uuid)) throw ApiException.unprocessable('root', 'project not found');
      const entries = this.testMode.projectAnnotations(key, uuid, withSubmissions);
      if (format === 'coco') return testModeCoco(entries);
      return (async function* () {
        yield JSON.stringify({ data: entries });
      })();
    }
    const project = await this.projects.owned(key.accountId, uuid, 'project not found', 422);
    if (format === 'coco') return cocoExport(project, () => this.completedTasks(project.id));
    return this.jsonExport(project, withSubmissions);
  }

  private async *jsonExport(project: Project, withSubmissions: boolean): AsyncIterable<string> {
    yield '{"data":[';
    let first = true;
    for await (const rows of this.completedTasks(project.id)) {
      const chunk = rows.map((row) => {
        const entry: ProjectAnnotationsEntry = {
          task_uuid: row.id,
          external_image_url: row.external_image_url,
          completed_at: new Date(row.completed_at).toISOString(),
          annotations: consensusOf(row.subs, project.consensusIouThreshold),
        };
        if (withSubmissions) entry.submissions = toWorkerSubmissions(project.id, row.subs);
        return JSON.stringify(entry);
      });
      yield (first ? '' : ',') + chunk.join(',');
      first = false;
    }
    yield ']}';
  }

  /**
   * Complete tasks, oldest completion first, in batches by keyset pagination on (completed_at, id).
   * The cursor is the timestamp as text, so microseconds survive the round trip through JavaScript.
   */
  async *completedTasks(projectId: string): AsyncIterable<CompletedTaskRow[]> {
    let after: [string, string] | null = null;
    for (;;) {
      const rows: CompletedTaskRow[] = await this.db.query(
        `SELECT t.id, t.external_image_url, t.completed_at, t.completed_at::text AS cursor, ${SUBMISSIONS_JSON_SQL}
           FROM tasks t
          WHERE t.project_id = $1 AND t.completed_at IS NOT NULL
            AND ($2::timestamptz IS NULL OR (t.completed_at, t.id) > ($2::timestamptz, $3::uuid))
          ORDER BY t.completed_at, t.id
          LIMIT ${EXPORT_BATCH}`,
        [projectId, after?.[0] ?? null, after?.[1] ?? null],
      );
      if (rows.length === 0) return;
      yield rows;
      if (rows.length < EXPORT_BATCH) return;
      const last = rows[rows.length - 1];
      after = [last.cursor, last.id];
    }
  }
}

/**
 * A test key's `?format=coco`: the fake entries as a COCO file (not the JSON list), deterministic like every
 * test-mode answer. Each entry becomes one fake submission holding its boxes, so the export shows them as is.
 */
function testModeCoco(entries: ProjectAnnotationsEntry[]): AsyncIterable<string> {
  const labels = [...new Set(entries.flatMap((e) => e.annotations.map((a) => a.label)))].sort();
  const project = Object.assign(new Project(), {
    name: 'Test project (using a test key)',
    labels: labels.map((name) => ({ name, color: '#1f77b4' })),
    consensusIouThreshold: 0.5,
  });
  const rows: CompletedTaskRow[] = entries.map((e) => ({
    id: e.task_uuid,
    external_image_url: e.external_image_url,
    completed_at: e.completed_at,
    cursor: e.completed_at,
    subs: [
      {
        id: e.task_uuid,
        worker_id: 'test',
        boxes: e.annotations.map(({ label, center_x, center_y, width, height }) => ({ label, center_x, center_y, width, height })),
        image_width: 1280,
        image_height: 960,
        created_at: e.completed_at,
      },
    ],
  }));
  return cocoExport(
    project,
    async function* () {
      yield rows;
    },
    entries[0]?.completed_at,
  );
}
