import type { ConsensusAnnotation, ProjectAnnotationsEntry, TaskAnnotationsRecord } from '@crowdbox/contracts';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { ApiException } from '../common/errors/api.exception';
import { isUuid } from '../common/crypto.util';
import type { ApiKeyPrincipal } from '../common/http/principal';
import { Project } from '../projects/project.entity';
import { ProjectsService } from '../projects/projects.service';
import { worktaskNotFound } from '../tasks/tasks.service';
import { TestModeService } from '../test-mode/test-mode.service';
import { cocoExport, type CocoImageRow } from './coco-export';
import {
  CONSENSUS_INPUT_JSON_SQL,
  SUBMISSIONS_JSON_SQL,
  consensusOf,
  consensusOfInputs,
  toWorkerSubmissions,
  type ConsensusInput,
  type SubmissionRow,
} from './task-results';

/**
 * Rows fetched per round trip when streaming a project's results. Small enough that a batch's rows
 * and what is made of them die young (a batch of 1,000 lived through two scavenges often enough to
 * push ~150 MB into V8's old space during a 100,000-task export; see docs/performance.md).
 */
export const EXPORT_BATCH = 250;

/** Every export query's keys: the task id and its completion time as text, the keyset cursor. */
interface PageRow {
  id: string;
  cursor: string;
}

/** A complete task with only what its consensus needs (the export without `?view=submissions`). */
interface ConsensusTaskRow extends PageRow {
  external_image_url: string | null;
  completed_at: Date;
  subs: ConsensusInput[];
}

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
    if (format === 'coco') {
      const threshold = project.consensusIouThreshold;
      return cocoExport(project, {
        images: () => this.pages<CocoImageRow & PageRow>(project.id, COCO_IMAGES_SQL),
        consensus: () => this.mapPages<ConsensusTaskRow, ConsensusAnnotation[]>(project.id, CONSENSUS_SQL, (row) => consensusOfInputs(row.subs, threshold)),
      });
    }
    return this.jsonExport(project, withSubmissions);
  }

  /**
   * Each batch is one JSON.stringify of the batch's entries with the brackets cut off: the same text as
   * the entries stringified one by one and joined with commas, with far fewer intermediate strings.
   */
  private async *jsonExport(project: Project, withSubmissions: boolean): AsyncIterable<string> {
    yield '{"data":[';
    let first = true;
    const threshold = project.consensusIouThreshold;
    const batches = withSubmissions
      ? this.mapPages<CompletedTaskRow, ProjectAnnotationsEntry>(project.id, SUBMISSIONS_SQL, (row) => ({
          task_uuid: row.id,
          external_image_url: row.external_image_url,
          completed_at: new Date(row.completed_at).toISOString(),
          annotations: consensusOf(row.subs, threshold),
          submissions: toWorkerSubmissions(project.id, row.subs),
        }))
      : this.mapPages<ConsensusTaskRow, ProjectAnnotationsEntry>(project.id, CONSENSUS_SQL, (row) => ({
          task_uuid: row.id,
          external_image_url: row.external_image_url,
          completed_at: row.completed_at.toISOString(),
          annotations: consensusOfInputs(row.subs, threshold),
        }));
    for await (const entries of batches) {
      yield (first ? '' : ',') + JSON.stringify(entries).slice(1, -1);
      first = false;
    }
    yield ']}';
  }

  /** pages(), each row turned into `map(row)` as soon as its batch arrives. */
  private async *mapPages<R extends PageRow, T>(projectId: string, sql: string, map: (row: R) => T): AsyncIterable<T[]> {
    for await (const rows of this.pages<R>(projectId, sql)) yield rows.map(map);
  }

  /**
   * Complete tasks, oldest completion first, in batches by keyset pagination on (completed_at, id),
   * with the columns of `sql` (one of the *_SQL below). The cursor is the timestamp as text, so
   * microseconds survive the round trip through JavaScript. The next batch is asked for as soon as
   * one arrives, so PostgreSQL builds it while this one is turned into JSON and sent: one query in
   * flight at a time, never more than two batches in memory.
   */
  private async *pages<R extends PageRow>(projectId: string, sql: string): AsyncIterable<R[]> {
    // pg's Pool#query, not TypeORM's query (a QueryRunner around the promise form of Client#query):
    // measured with --trace-gc-nvp, the batches' rows then stay in the young generation instead of
    // being promoted by the hundred megabytes (docs/performance.md, "Project annotations export").
    // Unnamed statements on purpose: a generic plan of this keyset query could not use the cursor.
    const pool = (this.db.driver as unknown as { master: Pool }).master;
    const page = (after: PageRow | null): Promise<R[]> => {
      const next = pool.query<R>(sql, [projectId, after?.cursor ?? null, after?.id ?? null]).then((result) => result.rows);
      // Not left unhandled if the consumer stops (client gone) before awaiting it; still thrown below.
      next.catch(() => undefined);
      return next;
    };
    let pending = page(null);
    for (;;) {
      const rows = await pending;
      if (rows.length === 0) return;
      const more = rows.length === EXPORT_BATCH;
      if (more) pending = page(rows[rows.length - 1]);
      yield rows;
      if (!more) return;
    }
  }
}

/** The keyset query of an export: `columns` of the complete tasks after the cursor ($2, $3). */
function pageSql(columns: string, joins = ''): string {
  return `SELECT t.id, t.completed_at::text AS cursor, ${columns}
            FROM tasks t ${joins}
           WHERE t.project_id = $1 AND t.completed_at IS NOT NULL
             AND ($2::timestamptz IS NULL OR (t.completed_at, t.id) > ($2::timestamptz, $3::uuid))
           ORDER BY t.completed_at, t.id
           LIMIT ${EXPORT_BATCH}`;
}

/** JSON with `?view=submissions`: every field of every submission. */
const SUBMISSIONS_SQL = pageSql(`t.external_image_url, t.completed_at, ${SUBMISSIONS_JSON_SQL}`);
/** JSON without submissions, and COCO's second pass: what the consensus reads. */
const CONSENSUS_SQL = pageSql(`t.external_image_url, t.completed_at, ${CONSENSUS_INPUT_JSON_SQL}`);
/** COCO's first pass: the image and the size given with the task's first submission. */
const COCO_IMAGES_SQL = pageSql(
  't.external_image_url, f.image_width, f.image_height',
  `LEFT JOIN LATERAL (SELECT s.image_width, s.image_height FROM submissions s WHERE s.task_id = t.id
                       ORDER BY s.created_at, s.id LIMIT 1) f ON true`,
);

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
    {
      async *images() {
        yield rows.map((row) => ({ id: row.id, external_image_url: row.external_image_url, image_width: row.subs[0]?.image_width ?? null, image_height: row.subs[0]?.image_height ?? null }));
      },
      async *consensus() {
        yield rows.map((row) => consensusOf(row.subs, project.consensusIouThreshold));
      },
    },
    entries[0]?.completed_at,
  );
}
