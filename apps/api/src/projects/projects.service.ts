import {
  type ConsoleProjectListQuery,
  type ConsoleProjectResponse,
  type ConsoleProjectsPage,
  type CreateProjectBody,
  PAGE_DEFAULT,
  type ProjectResponse,
  sanitizeTemplate,
  templateVariables,
  type UpdateProjectBody,
} from '@crowdbox/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, In, type EntityManager } from 'typeorm';
import { ApiException } from '../common/errors/api.exception';
import { isUuid } from '../common/crypto.util';
import { afterCursorSql, cutPage, pageCursorSql, pageParams } from '../common/page-cursor';
import { requestHash } from '../common/canonical-json';
import { onceForKey } from '../tasks/idempotency';
import { TtlCache } from '../common/ttl-cache';
import { APP_CONFIG } from '../config/config.module';
import { CacheInvalidation } from '../redis/cache-invalidation';
import { inTimedTransaction } from '../database/timed-transaction';
import { holdUndeletedAccount } from '../auth/sessions.service';
import type { AppConfig } from '../config/config.schema';
import { CANCEL_LIMIT_MS, cancelOutstanding, type CancelResult } from './cancel-outstanding';
import { DEFAULT_IMAGE_VARIABLE, Project, type ProjectLabel } from './project.entity';
import { loadProjectStats, NO_TASKS, statsOrEmpty } from './project-stats';
import { toConsoleProjectResponse, toProjectResponse } from './project.mapper';

/** Tableau 10: distinct, readable label colours for labels given without one. */
const PALETTE = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];

const MAX_CACHED_PROJECTS = 10_000;
/**
 * And at most this many characters of their templates and settings together (~64 MB of UTF-16): a
 * template may hold 100,000 characters, so 10,000 projects could otherwise hold 2 GB.
 */
const MAX_CACHED_PROJECT_CHARS = 32 * 1024 * 1024;

/** Projects: set up in the console, read by the requester API, used by every task. */
@Injectable()
export class ProjectsService {
  /** Projects by id for the add_task and checkout hot paths; a change makes every process forget its copy (CacheInvalidation). */
  private readonly cache: TtlCache<string, Project>;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly invalidation: CacheInvalidation,
  ) {
    this.cache = new TtlCache(config.CACHE_TTL_MS, MAX_CACHED_PROJECTS, { maxSize: MAX_CACHED_PROJECT_CHARS, sizeOf: projectChars });
    invalidation.register('projects', { forget: (ids) => ids.forEach((id) => this.cache.delete(id)), clear: () => this.cache.clear() });
  }

  /**
   * With an `Idempotency-Key`, at most one project per key and body in 24 h, as add_task
   * (tasks/idempotency.ts): the console sends one per form, so a Save pressed again after an answer that
   * never came replays the project made instead of making a second.
   */
  async create(accountId: string, body: CreateProjectBody, idempotencyKey?: string): Promise<ConsoleProjectResponse> {
    if (idempotencyKey === undefined) return this.db.transaction((tx) => this.insert(tx, accountId, body));
    return onceForKey(this.db, accountId, idempotencyKey, requestHash('console.create_project', body), (tx) => this.insert(tx, accountId, body));
  }

  /**
   * In `tx`, which holds the account's user row first (holdUndeletedAccount): a project inserted while the
   * account's deletion runs would not be archived by it. A new project has no tasks: its counts are all
   * zero, read from nothing.
   */
  private async insert(tx: EntityManager, accountId: string, body: CreateProjectBody): Promise<ConsoleProjectResponse> {
    await holdUndeletedAccount(tx, accountId);
    const template = sanitizeTemplate(body.template);
    const project = await tx.getRepository(Project).save({
      id: randomUUID(),
      accountId,
      name: body.name,
      displayName: body.display_name,
      displayShortDescription: body.display_short_description,
      template,
      variables: mergeVariables(template, body.variables ?? {}),
      labels: normalizeLabels(body.labels),
      imageVariable: body.image_variable ?? DEFAULT_IMAGE_VARIABLE,
      defaultRequiredSubmissions: body.default_required_submissions,
      defaultReward: body.default_reward,
      allowedCompletionTimeSeconds: body.allowed_completion_time_seconds,
      consensusIouThreshold: body.consensus_iou_threshold ?? 0.5,
    });
    return toConsoleProjectResponse(project, NO_TASKS);
  }

  /**
   * PATCH: reads the row itself, locked, not the cached copy. The cache may be up to CACHE_TTL_MS old
   * (another process's PATCH whose invalidation Redis did not carry), and saving a stale copy wrote its
   * old columns back over that change. Once committed, every process forgets its copy.
   * With `expected_updated_at`, a project saved since the caller read it is left as it is (409).
   */
  async update(accountId: string, id: string, body: UpdateProjectBody): Promise<ConsoleProjectResponse> {
    const project = await this.db.transaction(async (tx) => {
      // FOR NO KEY UPDATE, as archive: it still runs one PATCH (or archive) at a time, but does not conflict
      // with the KEY SHARE lock each task insert's foreign key takes on the row. FOR UPDATE did, and new
      // KEY SHARE lockers go ahead of a waiting FOR UPDATE: under a steady add_tasks stream a save waited
      // for a moment with no insert in flight, until its statement timeout (503).
      const row = await lockOwnedRow(tx, accountId, id, 'for_no_key_update');
      // Equal, not "not later": updated_at comes from the clocks of several processes, which may disagree.
      if (body.expected_updated_at !== undefined && Date.parse(body.expected_updated_at) !== row.updatedAt.getTime()) {
        throw ApiException.of(
          409,
          'expected_updated_at',
          `the project was changed at ${row.updatedAt.toISOString()}, after the version this edit was made on; read it again and apply the edit to it`,
        );
      }
      applyUpdate(row, body);
      await tx.getRepository(Project).save(row);
      return row;
    });
    this.invalidation.forget('projects', [project.id]);
    return this.consoleView(project);
  }

  /**
   * GET /api/console/projects: a page of the account's projects, newest first, on the shared keyset
   * (common/page-cursor.ts), with the figures of that page's projects only, and the account's counts in
   * use and archived. An account with thousands of projects used to get them all, each with figures read
   * from every one of its tasks (docs/decisions.md, "The project list is paged").
   */
  async page(accountId: string, query: ConsoleProjectListQuery): Promise<ConsoleProjectsPage> {
    const { data, next_cursor } = await this.keysetPage(accountId, query);
    const [counts]: Array<{ in_use: number; archived: number }> = await this.db.query(
      `SELECT count(*) FILTER (WHERE archived_at IS NULL)::int AS in_use, count(*) FILTER (WHERE archived_at IS NOT NULL)::int AS archived
         FROM projects WHERE account_id = $1`,
      [accountId],
    );
    return { data, next_cursor, counts };
  }

  /**
   * A page of the account's projects with their figures, as `page` reads it, without the account's counts
   * (a read of every project of the account): the data file's pages need none.
   */
  async keysetPage(accountId: string, query: ConsoleProjectListQuery): Promise<Omit<ConsoleProjectsPage, 'counts'>> {
    const limit = query.limit ?? PAGE_DEFAULT;
    const archived = query.archived === undefined ? '' : `AND p.archived_at IS ${query.archived === 'true' ? 'NOT ' : ''}NULL`;
    const rows: Array<{ id: string; cursor: string }> = await this.db.query(
      `SELECT p.id, ${pageCursorSql('p.created_at', 'p.id')} AS cursor FROM projects p
        WHERE p.account_id = $1 ${archived} ${query.before ? `AND ${afterCursorSql('p.created_at', 'p.id')}` : ''}
        ORDER BY p.created_at DESC, p.id DESC
        LIMIT ${limit + 1}`,
      pageParams(accountId, query.before),
    );
    const page = cutPage(rows, limit);
    return { data: await this.withFigures(page.rows.map(({ id }) => id)), next_cursor: page.next_cursor };
  }

  /** The console's view of these projects, in this order. */
  private async withFigures(ids: string[]): Promise<ConsoleProjectResponse[]> {
    if (ids.length === 0) return [];
    const projects = await this.db.getRepository(Project).findBy({ id: In(ids) });
    const byId = new Map(projects.map((p) => [p.id, p]));
    const stats = await loadProjectStats(this.db, ids);
    return ids.flatMap((id) => {
      const project = byId.get(id);
      return project ? [toConsoleProjectResponse(project, statsOrEmpty(stats, id))] : [];
    });
  }

  async consoleProject(accountId: string, id: string): Promise<ConsoleProjectResponse> {
    return this.consoleView(await this.owned(accountId, id));
  }

  /** GET /api/v1/projects/:uuid */
  async requesterProject(accountId: string, id: string): Promise<ProjectResponse> {
    const project = await this.owned(accountId, id, 'project not found', 422);
    const stats = await loadProjectStats(this.db, [project.id]);
    return toProjectResponse(project, statsOrEmpty(stats, project.id));
  }

  /**
   * The account's project, or an error that does not tell "not yours" from "does not exist".
   * The console answers 404; the requester API answers the seed spec's 422 `project not found`.
   */
  /**
   * The project's IoU threshold as the database has it now. `owned` answers from the per-process cache,
   * which a node that missed an invalidation holds for CACHE_TTL_MS: with its old threshold an export
   * (or the console's worker agreement) answered another consensus than GET /tasks/:uuid/annotations,
   * which reads the threshold in its query, and an export's storeBack wrote that consensus over one
   * stored with the right threshold. One small query, before any answer is written. A project gone
   * since `owned` read it keeps the threshold it was read with.
   */
  async currentThreshold(project: Project): Promise<number> {
    const rows: Array<{ threshold: number }> = await this.db.query('SELECT consensus_iou_threshold AS threshold FROM projects WHERE id = $1', [project.id]);
    return rows[0]?.threshold ?? project.consensusIouThreshold;
  }

  async owned(accountId: string, id: string, detail = 'project not found', status = 404): Promise<Project> {
    const project = isUuid(id) ? await this.find(id) : undefined;
    if (!project || project.accountId !== accountId) throw ApiException.of(status, 'root', detail);
    return project;
  }

  /** In one transaction of statements allowed CANCEL_LIMIT_MS each: its size is the project's (cancel-outstanding.ts). */
  async cancelOutstanding(accountId: string, id: string): Promise<CancelResult> {
    const project = await this.owned(accountId, id);
    return inTimedTransaction(this.db, CANCEL_LIMIT_MS, (tx) => cancelOutstanding(tx, project.id));
  }

  /**
   * POST /api/console/projects/:uuid/archive (docs/decisions.md, "Archiving a project"): sets archived_at
   * and, in the same transaction, cancels the outstanding tasks as cancel_outstanding does. The project's
   * row is locked first, so two archives run one after the other; an archived project is answered as it
   * is, nothing changed (its archived_at included). Then every process drops its cached copy, as for a PATCH.
   */
  async archive(accountId: string, id: string): Promise<ConsoleProjectResponse> {
    return this.setArchived(accountId, id, true);
  }

  /** POST /api/console/projects/:uuid/unarchive: clears archived_at; cancelled tasks stay cancelled. */
  async unarchive(accountId: string, id: string): Promise<ConsoleProjectResponse> {
    return this.setArchived(accountId, id, false);
  }

  /**
   * Archives every project of the account that is not archived yet, each as `archive` does, in `tx` (the
   * account's deletion, in a transaction of statements allowed CANCEL_LIMIT_MS); answers what to run once
   * `tx` has committed: every process drops its cached copies.
   */
  async archiveAll(tx: EntityManager, accountId: string): Promise<() => void> {
    const rows: Array<{ id: string }> = await tx.query('SELECT id FROM projects WHERE account_id = $1 AND archived_at IS NULL ORDER BY id', [accountId]);
    for (const { id } of rows) await setArchivedIn(tx, accountId, id, true);
    return () => this.invalidation.forget('projects', rows.map(({ id }) => id));
  }

  private async setArchived(accountId: string, id: string, archived: boolean): Promise<ConsoleProjectResponse> {
    const project = await inTimedTransaction(this.db, CANCEL_LIMIT_MS, (tx) => setArchivedIn(tx, accountId, id, archived));
    this.invalidation.forget('projects', [project.id]);
    return this.consoleView(project);
  }

  /**
   * Cancels one task of the account's project as cancel_outstanding would (cancel-outstanding.ts): `cancelled`
   * is 0 when it was already complete or cancelled. 404 for a task that is not the project's.
   */
  async cancelTask(accountId: string, id: string, taskId: string): Promise<CancelResult> {
    const project = await this.owned(accountId, id);
    if (!isUuid(taskId)) throw ApiException.notFound('task not found');
    return this.db.transaction(async (tx) => {
      const found: unknown[] = await tx.query('SELECT 1 FROM tasks WHERE id = $1 AND project_id = $2', [taskId, project.id]);
      if (found.length === 0) throw ApiException.notFound('task not found');
      return cancelOutstanding(tx, project.id, taskId);
    });
  }

  /**
   * A project by id through the short-lived cache (the add_task hot path). Keyed by the id as given, which
   * is lower case, as PostgreSQL writes it (a path's through IdParam, a body's by its schema): an entry per
   * spelling would outlive the PATCH that forgets the project's own.
   */
  async find(id: string): Promise<Project | undefined> {
    return this.cache.get(id, async () => (await this.db.getRepository(Project).findOne({ where: { id } })) ?? undefined);
  }

  private async consoleView(project: Project): Promise<ConsoleProjectResponse> {
    const stats = await loadProjectStats(this.db, [project.id]);
    return toConsoleProjectResponse(project, statsOrEmpty(stats, project.id));
  }
}

/** Every template variable is known (default null unless given); declared extras are kept. */
function mergeVariables(template: string, given: Record<string, string | null>): Record<string, string | null> {
  const merged: Record<string, string | null> = {};
  for (const name of templateVariables(template)) merged[name] = null;
  return { ...merged, ...given };
}

/**
 * The current variables (with their defaults) minus those that only existed because the old template used them: a variable
 * that left the template must not stay required (add_task would demand a value nobody uses).
 * Declared extras (never in the template, e.g. an image variable's default) are kept.
 */
function keptVariables(
  oldTemplate: string,
  newTemplate: string,
  variables: Record<string, string | null>,
): Record<string, string | null> {
  const inOld = new Set(templateVariables(oldTemplate));
  const inNew = new Set(templateVariables(newTemplate));
  return Object.fromEntries(Object.entries(variables).filter(([name]) => inNew.has(name) || !inOld.has(name)));
}

function normalizeLabels(labels: Array<string | { name: string; color?: string }>): ProjectLabel[] {
  const seen = new Set<string>();
  return labels.map((label, index) => {
    const name = typeof label === 'string' ? label : label.name;
    if (seen.has(name)) throw ApiException.unprocessable(`labels.${index}`, `"${name}" appears twice; label names must be unique`);
    seen.add(name);
    const color = typeof label === 'string' ? undefined : label.color;
    return { name, color: (color ?? PALETTE[index % PALETTE.length]).toLowerCase() };
  });
}

/** The labels no longer in use for new work, oldest first: the retired ones, and those `labels` drops; a label brought back is not retired. */
function retiredLabels(project: Project, labels: ProjectLabel[]): string[] {
  const current = new Set(labels.map((label) => label.name));
  const retired = [...(project.retiredLabels ?? []), ...project.labels.map((label) => label.name)];
  return [...new Set(retired)].filter((name) => !current.has(name));
}

/** The fields a PATCH gives, onto the project. */
function applyUpdate(project: Project, body: UpdateProjectBody): void {
  const oldTemplate = project.template;
  if (body.template !== undefined) project.template = sanitizeTemplate(body.template);
  if (body.template !== undefined || body.variables !== undefined) {
    project.variables = mergeVariables(project.template, body.variables ?? keptVariables(oldTemplate, project.template, project.variables));
  }
  if (body.labels !== undefined) {
    const labels = normalizeLabels(body.labels);
    project.retiredLabels = retiredLabels(project, labels);
    project.labels = labels;
  }
  if (body.name !== undefined) project.name = body.name;
  if (body.display_name !== undefined) project.displayName = body.display_name;
  if (body.display_short_description !== undefined) project.displayShortDescription = body.display_short_description;
  if (body.image_variable !== undefined) project.imageVariable = body.image_variable;
  if (body.default_required_submissions !== undefined) project.defaultRequiredSubmissions = body.default_required_submissions;
  if (body.default_reward !== undefined) project.defaultReward = body.default_reward;
  if (body.allowed_completion_time_seconds !== undefined) project.allowedCompletionTimeSeconds = body.allowed_completion_time_seconds;
  if (body.consensus_iou_threshold !== undefined) project.consensusIouThreshold = body.consensus_iou_threshold;
  // Every save changes updated_at, even two in one millisecond or on a clock behind the last writer's:
  // it is the version expected_updated_at names.
  project.updatedAt = new Date(Math.max(Date.now(), project.updatedAt.getTime() + 1));
}

/** About what a cached project holds, in characters: its template and settings dominate. */
export function projectChars(project: Project): number {
  return 1_000 + project.template.length + JSON.stringify(project.variables ?? {}).length + JSON.stringify(project.labels ?? []).length;
}

/** archive/unarchive's change, in `tx`: the row locked first, archived_at changed only when it differs. */
async function setArchivedIn(tx: EntityManager, accountId: string, id: string, archived: boolean): Promise<Project> {
  // FOR NO KEY UPDATE: the foreign-key checks of tasks being added do not wait for it.
  const row = await lockOwnedRow(tx, accountId, id, 'for_no_key_update');
  if ((row.archivedAt !== null) === archived) return row;
  await tx.query('UPDATE projects SET archived_at = CASE WHEN $2 THEN now() END WHERE id = $1', [id, archived]);
  if (archived) await cancelOutstanding(tx, id);
  return tx.getRepository(Project).findOneOrFail({ where: { id } });
}

/**
 * The account's project row itself, locked for the rest of the transaction (not the cached copy, which
 * may be up to CACHE_TTL_MS old when an invalidation was lost); another account's project is the 404 of a missing one, and is not locked.
 */
async function lockOwnedRow(tx: EntityManager, accountId: string, id: string, mode: 'for_no_key_update'): Promise<Project> {
  const row = isUuid(id) ? await tx.getRepository(Project).findOne({ where: { id, accountId }, lock: { mode } }) : null;
  if (!row) throw ApiException.of(404, 'root', 'project not found');
  return row;
}
