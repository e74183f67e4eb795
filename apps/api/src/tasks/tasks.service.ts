import { LIMITS, type AddTaskBody, type AddTasksBody, type ErrorItem, type TaskResponse } from '@crowdbox/contracts';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { ApiException } from '../common/errors/api.exception';
import { canonicalJson, requestHash } from '../common/canonical-json';
import { isUuid } from '../common/crypto.util';
import { runPrepared, type PreparedStatement } from '../database/prepared-statement';
import type { ApiKeyPrincipal } from '../common/http/principal';
import type { Project } from '../projects/project.entity';
import { ProjectsService } from '../projects/projects.service';
import { TestIdempotency } from '../test-mode/test-idempotency';
import { standInTask } from '../test-mode/stand-in-task';
import { TestModeService } from '../test-mode/test-mode.service';
import { WebhookEndpointsService } from '../webhooks/webhook-endpoints.service';
import { onceForKey } from './idempotency';
import { buildTask, resolveProjectUuid, type NewTask, type PromptBudget } from './task-builder';
import { newTaskResponse, TASK_ROW_SQL, toTaskResponse, type TaskRow } from './task.mapper';

/** The requester API's task use cases: add one, add a batch, read one. */
@Injectable()
export class TasksService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly projects: ProjectsService,
    private readonly testMode: TestModeService,
    private readonly testIdempotency: TestIdempotency,
    private readonly endpoints: WebhookEndpointsService,
  ) {}

  /** POST /api/v1/projects/add_task */
  async addTask(key: ApiKeyPrincipal, body: AddTaskBody, idempotencyKey?: string): Promise<TaskResponse> {
    const errors: ErrorItem[] = [];
    const uuid = resolveProjectUuid(body.project_uuid, body.task, 'task', errors);
    if (uuid === undefined) throw new ApiException(422, errors);
    const project = await this.projectFor(key, uuid);
    const hash = requestHash('add_task', body);
    if (key.mode === 'test') {
      return this.testIdempotency.once(key.accountId, idempotencyKey, hash, (replay) => {
        if (project && !replay) takesTasks(project);
        const task = project ? buildTask(project, body.task, 'task', errors) : standInTask(body.task, 'task', errors);
        if (!task) throw new ApiException(422, errors);
        return this.testMode.createdTask(key, task, canonicalJson(body));
      });
    }
    return this.once(key.accountId, idempotencyKey, hash, () => {
      takesTasks(found(project));
      const task = buildTask(found(project), body.task, 'task', errors);
      if (!task) throw new ApiException(422, errors);
      return {
        tasks: [task],
        write: async (on) => {
          await insertTasks(on, [task]);
          return newTaskResponse(task);
        },
      };
    });
  }

  /** POST /api/v1/projects/add_tasks: all or nothing. */
  async addTasks(key: ApiKeyPrincipal, body: AddTasksBody, idempotencyKey?: string): Promise<TaskResponse[]> {
    const errors: ErrorItem[] = [];
    const uuids = body.tasks.map((input, i) => resolveProjectUuid(body.project_uuid, input, `tasks.${i}`, errors));
    if (errors.length > 0) throw new ApiException(422, errors);
    const projects = new Map<string, Project | undefined>();
    for (const uuid of new Set(uuids as string[])) projects.set(uuid, await this.projectFor(key, uuid));
    const build = (replay = false) => {
      if (key.mode === 'live') for (const project of projects.values()) found(project);
      if (!replay) for (const project of projects.values()) if (project) takesTasks(project);
      const budget: PromptBudget = { chars: LIMITS.batchPromptChars };
      const results = body.tasks.map((input, i) => {
        const project = projects.get(uuids[i] as string);
        return project ? buildTask(project, input, `tasks.${i}`, errors, budget) : standInTask(input, `tasks.${i}`, errors);
      });
      if (errors.length > 0) throw new ApiException(422, errors);
      return results as NewTask[];
    };
    const hash = requestHash('add_tasks', body);
    if (key.mode === 'test') {
      return this.testIdempotency.once(key.accountId, idempotencyKey, hash, (replay) => {
        const seed = canonicalJson(body);
        return build(replay).map((task, i) => this.testMode.createdTask(key, task, `${seed}#${i}`));
      });
    }
    return this.once(key.accountId, idempotencyKey, hash, () => {
      const tasks = build();
      return {
        tasks,
        write: async (on) => {
          await insertTasks(on, tasks);
          return tasks.map(newTaskResponse);
        },
      };
    });
  }

  /**
   * Runs a creation once per Idempotency-Key (API.md §1). `prepare` checks the body against the project
   * and returns the tasks and their write; the tasks' callback addresses are registered just before the
   * write. With a key, the stored response is looked up first, so a replay answers it even if the
   * project's template changed since; then the check, registration and write run in the key's
   * transaction (onceForKey), after its lock and its second look, so a reused key with another body is refused before it can arm a
   * callback address, even when the two requests run at once. The challenges of the addresses it armed
   * are scheduled after the commit (the challenge job reads the row). Without a key, one INSERT is atomic
   * on its own: registration, then the write, no transaction.
   */
  private async once<T>(
    accountId: string,
    idempotencyKey: string | undefined,
    hash: string,
    prepare: () => { tasks: NewTask[]; write: (on: DataSource | EntityManager) => Promise<T> },
  ): Promise<T> {
    if (idempotencyKey === undefined) {
      const { tasks, write } = prepare();
      this.scheduleChallenges(await this.registerCallbacks(accountId, tasks, this.db));
      return write(this.db);
    }
    let armed: string[] = [];
    const result = await onceForKey(this.db, accountId, idempotencyKey, hash, async (tx) => {
      const { tasks, write } = prepare();
      armed = await this.registerCallbacks(accountId, tasks, tx);
      return write(tx);
    });
    this.scheduleChallenges(armed);
    return result;
  }

  /** GET /api/v1/tasks/:uuid */
  async getTask(key: ApiKeyPrincipal, uuid: string): Promise<TaskResponse> {
    if (!isUuid(uuid)) throw worktaskNotFound();
    if (key.mode === 'test') return this.testMode.task(key, uuid);
    const rows: TaskRow[] = await this.db.query(
      `SELECT ${TASK_ROW_SQL} FROM tasks t JOIN projects p ON p.id = t.project_id WHERE t.id = $1 AND p.account_id = $2`,
      [uuid, key.accountId],
    );
    if (!rows[0]) throw worktaskNotFound();
    return toTaskResponse(rows[0]);
  }

  /**
   * Registers each distinct callback address (API.md §2) on `on` and points the tasks at it; answers the
   * ids of the addresses whose challenge must be scheduled once `on` has committed. In a fixed order:
   * two batches that register the same new addresses in their transactions then wait on each other's
   * rows in turn, never in a cycle (a deadlock).
   */
  private async registerCallbacks(accountId: string, tasks: NewTask[], on: DataSource | EntityManager): Promise<string[]> {
    const urls = [...new Set(tasks.flatMap((task) => (task.callbackUrl ? [task.callbackUrl] : [])))].sort();
    const ids = new Map<string, string>();
    const armed: string[] = [];
    for (const url of urls) {
      const registered = await this.endpoints.register(accountId, url, on);
      ids.set(url, registered.id);
      if (registered.armed) armed.push(registered.id);
    }
    for (const task of tasks) if (task.callbackUrl) task.callbackEndpointId = ids.get(task.callbackUrl) ?? null;
    return armed;
  }

  private scheduleChallenges(endpointIds: string[]): void {
    for (const id of endpointIds) this.endpoints.scheduleChallenge(id);
  }

  /**
   * The project for a task, or undefined: another account's project is missing like one that does not
   * exist. A test key with no such project gets fake data, never an error, so integrations can start
   * before the project exists; a live key's request is refused by `found`, in the creation, after the
   * Idempotency-Key's lookup, as whether the project still takes tasks is (takesTasks): a reused key
   * with another body is the key's 422 whatever project that body names (API.md §1), as with a test key.
   */
  private async projectFor(key: ApiKeyPrincipal, uuid: string): Promise<Project | undefined> {
    const project = isUuid(uuid) ? await this.projects.find(uuid) : undefined;
    return project && project.accountId === key.accountId ? project : undefined;
  }
}

/** A live key's project, checked where the body is: a missing one (or another account's) is not found. */
function found(project: Project | undefined): Project {
  if (!project) throw ApiException.unprocessable('root', 'project not found');
  return project;
}

/**
 * A creation's check that its project takes tasks, run where the body is checked: after a stored answer
 * to the same Idempotency-Key was looked for (a test key's answer is computed again, told it is a
 * replay), so a retry of a request that created tasks before the project was archived gets that answer
 * (API.md §1: the first response, the same task UUIDs), not a 422 saying no task was made.
 */
function takesTasks(project: Project): void {
  if (project.archivedAt) throw projectArchived(project.id);
}

/** add_task/add_tasks (and a test key's dry run) on an archived project: nothing is written. */
export function projectArchived(uuid: string): ApiException {
  return ApiException.unprocessable(
    'root',
    `project ${uuid} is archived and takes no new tasks; unarchive it first (the project's page in the console, or POST /api/console/projects/${uuid}/unarchive)`,
  );
}

export function worktaskNotFound(): ApiException {
  return ApiException.unprocessable('root', 'worktask not found');
}

const TASK_COLUMNS = `id, project_id, prompt, substitutions, external_image_url, reward, required_submissions,
                      allowed_completion_time_seconds, callback_url, callback_endpoint_id`;

const INSERT_ONE_TASK: PreparedStatement = {
  name: 'tasks_insert_one',
  text: `INSERT INTO tasks (${TASK_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
};

/** unnest of column arrays: one statement and one round trip for 1,000 tasks. */
const INSERT_MANY_TASKS: PreparedStatement = {
  name: 'tasks_insert_many',
  text: `INSERT INTO tasks (${TASK_COLUMNS})
         SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::jsonb[], $5::text[], $6::int[], $7::int[], $8::int[], $9::text[], $10::uuid[])`,
};

/** Inserts tasks in one statement, on the pool or inside the caller's transaction. */
async function insertTasks(on: DataSource | EntityManager, tasks: NewTask[]): Promise<void> {
  const only = tasks.length === 1 ? tasks[0] : undefined;
  if (only) {
    await runPrepared(on, INSERT_ONE_TASK, [
      only.id,
      only.projectId,
      only.prompt,
      JSON.stringify(only.substitutions),
      only.externalImageUrl,
      only.reward,
      only.requiredSubmissions,
      only.allowedCompletionTimeSeconds,
      only.callbackUrl,
      only.callbackEndpointId,
    ]);
    return;
  }
  await runPrepared(on, INSERT_MANY_TASKS, [
    tasks.map((t) => t.id),
    tasks.map((t) => t.projectId),
    tasks.map((t) => t.prompt),
    tasks.map((t) => JSON.stringify(t.substitutions)),
    tasks.map((t) => t.externalImageUrl),
    tasks.map((t) => t.reward),
    tasks.map((t) => t.requiredSubmissions),
    tasks.map((t) => t.allowedCompletionTimeSeconds),
    tasks.map((t) => t.callbackUrl),
    tasks.map((t) => t.callbackEndpointId),
  ]);
}
