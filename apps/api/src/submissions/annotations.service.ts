import type { ConsensusAnnotation, TaskAnnotationsRecord } from '@crowdbox/contracts';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { ApiException } from '../common/errors/api.exception';
import { isUuid } from '../common/crypto.util';
import type { ApiKeyPrincipal } from '../common/http/principal';
import type { Project } from '../projects/project.entity';
import { ProjectsService } from '../projects/projects.service';
import { worktaskNotFound } from '../tasks/tasks.service';
import { TestModeService } from '../test-mode/test-mode.service';
import { pgPool } from '../database/prepared-statement';
import { completedTaskPages, pageSql, type PageRow } from './completed-task-pages';
import { testModeCoco, testModeCsv } from './test-mode-exports';
import { annotationTails, CocoCategories, cocoExport } from './coco-export';
import { csvExport, type CsvTask } from './csv-export';
import type { ExportFormat } from './export-format';
import { storeBack, storedConsensusHolds, taskConsensus } from './stored-consensus';
import { consensusInputJson, submissionsJson, toWorkerSubmissions, type ConsensusInput, type SubmissionRow } from './task-results';

/**
 * A complete task's JSON entry (without `?view=submissions`): `entry` is its finished text when the
 * stored consensus holds; otherwise `entry` is null and the other columns are there to compute it.
 */
interface EntryRow extends PageRow {
  entry: string | null;
  external_image_url: string | null;
  completed_at: Date | null;
  subs: ConsensusInput[] | null;
}

/** With `?view=submissions`: every submission, and the stored consensus text when it holds. */
interface SubmissionsEntryRow extends PageRow {
  external_image_url: string | null;
  completed_at: Date;
  consensus: string | null;
  subs: SubmissionRow[];
}

/** CSV: a task's image, completion and frame (FRAME_JOIN), with COCO's second pass's columns. */
interface CsvRow extends CocoBoxesRow {
  external_image_url: string | null;
  completed_at: Date;
  frame: [number, number];
}

/** COCO's second pass: a task's stored consensus when it holds, else its submissions. */
interface CocoBoxesRow extends PageRow {
  consensus: ConsensusAnnotation[] | null;
  subs: ConsensusInput[] | null;
}


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
    const holds = storedConsensusHolds('p.consensus_iou_threshold');
    const rows: Array<{
      id: string;
      project_id: string;
      completed_at: Date | null;
      threshold: number;
      consensus: ConsensusAnnotation[] | null;
      subs: SubmissionRow[] | null;
    }> = await this.db.query(
      `SELECT t.id, t.project_id, t.completed_at, p.consensus_iou_threshold AS threshold,
              CASE WHEN ${holds} THEN t.consensus END AS consensus,
              CASE WHEN $3 OR (t.completed_at IS NOT NULL AND NOT ${holds}) THEN ${submissionsJson('t')} END AS subs
         FROM tasks t JOIN projects p ON p.id = t.project_id
        WHERE t.id = $1 AND p.account_id = $2`,
      [uuid, key.accountId, withSubmissions],
    );
    const row = rows[0];
    if (!row) throw worktaskNotFound();
    const record: TaskAnnotationsRecord = {
      task_uuid: row.id,
      completed: row.completed_at !== null,
      completed_at: row.completed_at?.toISOString() ?? null,
      annotations: row.completed_at ? await taskConsensus(this.db, row, row.threshold) : [],
    };
    if (withSubmissions) record.submissions = toWorkerSubmissions(row.project_id, row.subs ?? []);
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
      if (format === 'csv') return testModeCsv(entries);
      return (async function* () {
        yield JSON.stringify({ data: entries });
      })();
    }
    const project = await this.projects.owned(key.accountId, uuid, 'project not found', 422);
    const threshold = await this.projects.currentThreshold(project);
    if (format === 'coco') return this.cocoExport(project, threshold);
    if (format === 'csv') return this.csvExport(project, threshold);
    return this.jsonExport(project, threshold, withSubmissions);
  }

  /**
   * `{"data":[…]}`, each batch's entries joined with commas. An entry whose stored consensus holds is
   * built by PostgreSQL as text (ENTRY_SQL), so this only concatenates; the others are computed here
   * (and their consensus stored, see storeBack).
   */
  private async *jsonExport(project: Project, threshold: number, withSubmissions: boolean): AsyncIterable<string> {
    // The opening goes out with the first page: until a stream's first chunk, Fastify can still answer
    // its error as an error (a busy pool: 503 with Retry-After), where after it the 200 is sent and a
    // failure can only cut the body short.
    let opening = '{"data":[';
    let first = true;
    const store = storeBack(this.pool, threshold);
    const batches = withSubmissions
      ? this.mapPages<SubmissionsEntryRow, string>(project.id, SUBMISSIONS_SQL, [threshold], (row) => {
          const annotations = row.consensus ?? store.computed(row.id, row.subs.map((s): ConsensusInput => [s.worker_id, s.boxes, s.image_width, s.image_height])).text;
          return entryText(row.id, row.external_image_url, row.completed_at, annotations, JSON.stringify(toWorkerSubmissions(project.id, row.subs)));
        })
      : this.mapPages<EntryRow, string>(project.id, ENTRY_SQL, [threshold], (row) =>
          row.entry ?? entryText(row.id, row.external_image_url, row.completed_at as Date, store.computed(row.id, row.subs ?? []).text),
        );
    try {
      for await (const entries of batches) {
        yield opening + (first ? '' : ',') + entries.join(',');
        opening = '';
        first = false;
        await store.flush();
      }
    } finally {
      await store.done();
    }
    yield opening + ']}';
  }

  /** COCO: images (their text built by the database), then the boxes of the same tasks (cocoExport). */
  private cocoExport(project: Project, threshold: number): AsyncIterable<string> {
    const categories = new CocoCategories(project);
    const pages = this.mapPages.bind(this);
    const pool = this.pool;
    return cocoExport(project, {
      images: () => pages<PageRow & { image: string }, { id: string; tail: string }>(project.id, COCO_IMAGES_SQL, [], (row) => ({ id: row.id, tail: row.image })),
      async *annotations() {
        const store = storeBack(pool, threshold);
        try {
          for await (const tasks of pages<CocoBoxesRow, { id: string; boxes: string[] }>(project.id, COCO_BOXES_SQL, [threshold], (row) => ({
            id: row.id,
            boxes: annotationTails(row.consensus ?? store.computed(row.id, row.subs ?? []).boxes, categories),
          }))) {
            yield tasks;
            await store.flush();
          }
        } finally {
          await store.done();
        }
      },
    }, categories);
  }

  /** CSV: one record per consensus box (csvExport), the frame and the boxes as COCO's. */
  private async *csvExport(project: Project, threshold: number): AsyncIterable<string> {
    const store = storeBack(this.pool, threshold);
    const pages = this.mapPages<CsvRow, CsvTask>(project.id, CSV_SQL, [threshold], (row) => ({
      id: row.id,
      external_image_url: row.external_image_url,
      completed_at: row.completed_at,
      width: row.frame[0],
      height: row.frame[1],
      boxes: row.consensus ?? store.computed(row.id, row.subs ?? []).boxes,
    }));
    try {
      for await (const chunk of csvExport(pages)) {
        yield chunk;
        await store.flush();
      }
    } finally {
      await store.done();
    }
  }

  private get pool(): Pool {
    // pg's Pool#query, not TypeORM's query (a QueryRunner around the promise form of Client#query):
    // measured with --trace-gc-nvp, the batches' rows then stay in the young generation instead of
    // being promoted by the hundred megabytes (docs/performance.md, "Project annotations export").
    return pgPool(this.db);
  }

  /** pages(), each row turned into `map(row)` as soon as its batch arrives. */
  private async *mapPages<R extends PageRow, T>(projectId: string, sql: string, params: unknown[], map: (row: R) => T): AsyncIterable<T[]> {
    for await (const rows of completedTaskPages<R>(this.pool, projectId, sql, params)) yield rows.map(map);
  }
}

/**
 * One JSON export entry as text, the same as JSON.stringify of the entry object (and as ENTRY_SQL):
 * `annotations` (and `submissions`) arrive as JSON text.
 */
function entryText(id: string, imageUrl: string | null, completedAt: Date, annotations: string, submissions?: string): string {
  const head = JSON.stringify({ task_uuid: id, external_image_url: imageUrl, completed_at: completedAt.toISOString() }).slice(0, -1);
  return `${head},"annotations":${annotations}${submissions === undefined ? '' : `,"submissions":${submissions}`}}`;
}

/** The stored consensus holds for the export's threshold, $4 (the project's in the database when the export began). */
const HOLDS = storedConsensusHolds('$4::real');

/**
 * A JSON string of `text` as JSON.stringify writes it: to_json escapes the same characters (", \ and
 * control characters, with the same short forms and lowercase \u00xx).
 */
const jsonString = (text: string) => `to_json(${text})::text`;

/**
 * JSON without submissions. For a task whose stored consensus holds, the entry's text, byte for byte
 * what entryText makes of it: completed_at in UTC with milliseconds, truncated like a JavaScript Date
 * made by pg (toISOString), and the stored `annotations` text as is. Otherwise what entryText needs
 * (the submissions are read only for those rows: a CASE evaluates its subquery only when taken).
 */
const ENTRY_SQL = pageSql(`
  CASE WHEN ${HOLDS} THEN
    '{"task_uuid":"' || t.id || '","external_image_url":' || coalesce(${jsonString('t.external_image_url')}, 'null')
      || ',"completed_at":"' || to_char(t.completed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
      || '","annotations":' || t.consensus::text || '}'
  END AS entry,
  CASE WHEN NOT ${HOLDS} THEN t.external_image_url END AS external_image_url,
  CASE WHEN NOT ${HOLDS} THEN t.completed_at END AS completed_at,
  CASE WHEN NOT ${HOLDS} THEN ${consensusInputJson('t')} END AS subs`);

/** JSON with `?view=submissions`: every field of every submission, and the stored consensus text when it holds. */
const SUBMISSIONS_SQL = pageSql(`t.external_image_url, t.completed_at,
  CASE WHEN ${HOLDS} THEN t.consensus::text END AS consensus, ${submissionsJson('t')} AS subs`);

/**
 * `frame.wh`, the task's frame (the size given with its first submission) as [width, height], for COCO's
 * images and the CSV. The frame stored with the consensus (stored-consensus.ts) when there is one:
 * looking up each task's first submission cost ~1 s of PostgreSQL per 100,000 tasks; a task completed
 * before frames were stored, or whose consensus was never stored, still looks it up (a CASE evaluates
 * its subquery only when taken), and one without any submission is 0 x 0. OFFSET 0 keeps the planner
 * from pulling the CASE up into each use of `wh` (COCO reads it twice: two lookups per task otherwise).
 */
const FRAME_JOIN = `CROSS JOIN LATERAL (SELECT
  CASE WHEN t.frame_width IS NOT NULL THEN ARRAY[t.frame_width, t.frame_height]
       ELSE coalesce((SELECT ARRAY[s.image_width, s.image_height]
                        FROM submissions s WHERE s.task_id = t.id ORDER BY s.created_at, s.id LIMIT 1),
                     ARRAY[0, 0]) END AS wh OFFSET 0) frame`;

/** COCO's first pass: the image and the task's frame, as imageTail's text. */
const COCO_IMAGES_SQL = pageSql(
  `',"file_name":' || coalesce(${jsonString('t.external_image_url')}, '"' || t.id || '.jpg"')
     || ',"coco_url":' || coalesce(${jsonString('t.external_image_url')}, 'null')
     || ',"width":' || frame.wh[1] || ',"height":' || frame.wh[2]
     || ',"task_uuid":"' || t.id || '"}' AS image`,
  FRAME_JOIN,
);

/**
 * COCO's second pass: the stored consensus when it holds (turned into annotation texts here: measured,
 * PostgreSQL formatting every box's numbers as text cost it 3.6 s of CPU for 100,000 tasks, this ~0.3 s
 * of ours), otherwise the submissions, to compute the consensus here.
 */
const COCO_BOXES_SQL = pageSql(`
  CASE WHEN ${HOLDS} THEN t.consensus END AS consensus,
  CASE WHEN NOT ${HOLDS} THEN ${consensusInputJson('t')} END AS subs`);

/** The CSV's page: COCO_BOXES_SQL's columns with the image, the completion and the frame, in one pass. */
const CSV_SQL = pageSql(
  `t.external_image_url, t.completed_at, frame.wh AS frame,
  CASE WHEN ${HOLDS} THEN t.consensus END AS consensus,
  CASE WHEN NOT ${HOLDS} THEN ${consensusInputJson('t')} END AS subs`,
  FRAME_JOIN,
);
