import type { EarningsResponse, WorkProjectResponse } from '@crowdbox/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { SessionPrincipal } from '../common/http/principal';
import { TtlCache } from '../common/ttl-cache';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { TASK_HAS_FREE_SLOT_SQL } from '../projects/project-stats';

/** How long a worker's list of projects, and the shared snapshot it is made from, are kept (at most CACHE_TTL_MS). */
const PROJECTS_CACHE_MS = 2_000;
/**
 * Once the database has committed anything since the snapshot was read, the next list that needs it
 * reads it again, but not sooner than this (or than the previous read took, up to PROJECTS_CACHE_MS)
 * after the previous read began: a process whose database is always busy then costs at most two
 * aggregates a second, however many workers it serves, and never two at once; one that takes longer
 * (786,000 open tasks took ~1.9 s) is followed by the next as it ends, so at that size a process keeps
 * about one PostgreSQL core busy with them, where each worker's own aggregate cost one per worker. An
 * idle database shows a new task or another's lease to the next list at once, as a worker's first list
 * did when each worker ran their own aggregate.
 */
const SNAPSHOT_MIN_GAP_MS = 500;
/**
 * How many distinct rewards (highest and lowest) and times (shortest) the snapshot keeps per project,
 * with how many available tasks have each: a worker's own leases are taken off these, so the range they
 * are shown stays exact unless they leased every available task of all of a project's top 8 values.
 */
export const SNAPSHOT_BUCKETS = 8;
const MAX_CACHED_LISTS = 10_000;
/**
 * At most this many characters of lists together (`workListChars`; ~32 MB of UTF-16 and the objects
 * around them), and at most this many in the shared snapshot. A list has one entry per project with a
 * task the worker could take, unpaged, and its display name and description are the requesters' (up to
 * 1,200 characters): a count of lists alone let 10,000 workers' lists of a thousand projects each hold
 * gigabytes. A list over the whole bound is not kept at all; a snapshot over it is shared by the calls
 * waiting for it, and read again by the next.
 */
export const MAX_CACHED_LIST_CHARS = 16 * 1024 * 1024;
/** What an entry holds besides its two texts, counted in characters: the uuid, the numbers, the object. */
const ENTRY_CHARS = 150;

/** About what a cached list holds, in characters: its projects' display names and descriptions dominate. */
export function workListChars(list: WorkProjectResponse[]): number {
  return projectsChars(list, (p) => [p.display_name, p.display_short_description]);
}

/** The same count for any list of projects, given each one's display name and description. */
function projectsChars<T>(projects: T[], texts: (project: T) => [string, string]): number {
  return projects.reduce((sum, p) => {
    const [name, description] = texts(p);
    return sum + ENTRY_CHARS + name.length + description.length;
  }, 1);
}

/** [value, available tasks with it], in the order the bucket list is read. */
type Bucket = [number, number];

/** The first value of `buckets` with a task left once `taken` (one value per task taken off) is taken off. */
function firstLeft(buckets: Bucket[], taken: number[]): number | undefined {
  for (const [value, n] of buckets) if (n > taken.filter((v) => v === value).length) return value;
  return undefined;
}

/** A listable project as every worker's list starts from it. */
interface SnapshotProject {
  id: string;
  accountId: string;
  displayName: string;
  description: string;
  available: number;
  /** Highest rewards first, lowest rewards first, shortest times first; at most SNAPSHOT_BUCKETS each. */
  high: Bucket[];
  low: Bucket[];
  times: Bucket[];
}

/** Every listable project with an available task, as of `takenAt` (the database's now() of the read). */
export interface ProjectsSnapshot {
  /** As the database's text, so its microseconds survive the round trip (a Date keeps milliseconds). */
  takenAt: string;
  /** The database's pg_current_snapshot() of the read: while it is the current one, nothing was committed since. */
  dbSnapshot: string;
  /** Date.now() when the read began, and until when its lists may be answered. */
  startedAt: number;
  expiresAt: number;
  /** By display name then id, as the database orders them: a list keeps that order among equal rewards. */
  projects: SnapshotProject[];
}

interface CachedList {
  snapshot: ProjectsSnapshot;
  list: WorkProjectResponse[];
}

/**
 * The shared read (one per process at a time, docs/decisions.md "The work list is one shared snapshot, less
 * each worker's own part"): every listable project's available tasks, counted and bucketed, with no worker in it. A task is
 * available while it is open and has a slot, with the task row's lease hint standing in for a probe of
 * checkouts unless one of its leases ran out unswept (TASK_HAS_FREE_SLOT_SQL). Exported for its plan test.
 */
export const PROJECTS_SNAPSHOT_SQL = `
  WITH available AS MATERIALIZED (
    SELECT t.project_id, t.reward, t.allowed_completion_time_seconds AS secs
      FROM tasks t JOIN projects p ON p.id = t.project_id
     WHERE t.completed_at IS NULL AND t.cancelled_at IS NULL AND p.archived_at IS NULL AND ${TASK_HAS_FREE_SLOT_SQL}
  ), rewards AS (
    SELECT project_id, reward, count(*) AS n,
           row_number() OVER (PARTITION BY project_id ORDER BY reward DESC) AS high,
           row_number() OVER (PARTITION BY project_id ORDER BY reward) AS low
      FROM available GROUP BY project_id, reward
  ), times AS (
    SELECT project_id, secs, count(*) AS n, row_number() OVER (PARTITION BY project_id ORDER BY secs) AS low
      FROM available GROUP BY project_id, secs
  )
  SELECT p.id, p.account_id, p.display_name, p.display_short_description, now()::text AS taken_at, pg_current_snapshot()::text AS db_snapshot, r.available, r.high, r.low, s.times
    FROM (SELECT project_id, sum(n) AS available,
                 jsonb_agg(jsonb_build_array(reward, n) ORDER BY reward DESC) FILTER (WHERE high <= ${SNAPSHOT_BUCKETS}) AS high,
                 jsonb_agg(jsonb_build_array(reward, n) ORDER BY reward) FILTER (WHERE low <= ${SNAPSHOT_BUCKETS}) AS low
            FROM rewards GROUP BY project_id) r
    JOIN (SELECT project_id, jsonb_agg(jsonb_build_array(secs, n) ORDER BY secs) FILTER (WHERE low <= ${SNAPSHOT_BUCKETS}) AS times
            FROM times GROUP BY project_id) s ON s.project_id = r.project_id
    JOIN projects p ON p.id = r.project_id
   ORDER BY p.display_name, p.id`;

/**
 * One worker's part ($1 the worker, $2 the snapshot's takenAt), read through their own rows only: the
 * accounts that blocked them, the projects archived since the snapshot, and each task they ever leased
 * (any state: such a task is never offered to them again) that the snapshot counted as available. Whether
 * it did is worked out as of $2 from the task's own checkouts: a lease live then, a submission made by
 * then, the task open then and created by then. So their checkout, submit or release since the snapshot
 * shows at once, and nothing is taken off twice. Exported for its plan test.
 */
export const WORKER_PART_SQL = `
  SELECT 'blocked' AS kind, wb.account_id AS id, NULL::int AS reward, NULL::int AS secs
    FROM worker_blocks wb WHERE wb.worker_id = $1
  UNION ALL
  SELECT 'archived', p.id, NULL, NULL FROM projects p WHERE p.archived_at >= $2
  UNION ALL
  SELECT 'taken', t.project_id, t.reward, t.allowed_completion_time_seconds
    FROM checkouts mine JOIN tasks t ON t.id = mine.task_id
   WHERE mine.worker_id = $1 AND t.created_at <= $2
     AND (t.completed_at IS NULL OR t.completed_at > $2) AND (t.cancelled_at IS NULL OR t.cancelled_at > $2)
     -- Slots taken at $2: today's submissions less those made since, plus the leases live at $2 (a lease
     -- submitted since was live then, and is taken off once as a submission made since).
     AND t.submission_count
         + (SELECT count(*) FILTER (WHERE c.checked_out_at <= $2 AND c.expires_at > $2 AND (c.state = 'active' OR c.ended_at > $2))
                 - count(*) FILTER (WHERE c.state = 'submitted' AND c.ended_at > $2)
              FROM checkouts c WHERE c.task_id = t.id)
         < t.required_submissions`;

/** The worker's overview: where there is work for them, and what they have earned. */
@Injectable()
export class WorkSummaryService {
  /**
   * Each worker's GET /api/work/projects, by user id, until the snapshot it was made from expires. The
   * worker's own checkout, submit and release forget it (WorkController), so it never hides what they
   * just did; others' changes show within PROJECTS_CACHE_MS (at once for this process's workers).
   */
  private readonly projectLists: TtlCache<string, CachedList>;
  private readonly ttlMs: number;
  private snapshot: ProjectsSnapshot | undefined;
  private snapshotLoad: { startedAt: number; promise: Promise<ProjectsSnapshot> } | undefined;
  /** Date.now() when a commit since the kept snapshot was last seen: a snapshot begun by then may not show it. */
  private changedAt = 0;
  /** How long the last snapshot read took, in ms. */
  private lastReadMs = 0;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.ttlMs = Math.min(PROJECTS_CACHE_MS, config.CACHE_TTL_MS);
    this.projectLists = new TtlCache(this.ttlMs, MAX_CACHED_LISTS, {
      maxSize: MAX_CACHED_LIST_CHARS,
      sizeOf: (cached) => workListChars(cached.list),
    });
  }

  /**
   * GET /api/work/projects: other accounts' projects with at least one task this worker could check
   * out now (open, a free slot, never leased by them), none of an account that blocked them. `reward`
   * and `min_reward` are the highest and the lowest reward among those tasks.
   */
  async projects(worker: SessionPrincipal): Promise<WorkProjectResponse[]> {
    const cached = this.projectLists.peek(worker.userId);
    // A list lives no longer than its snapshot, so others' changes still show within PROJECTS_CACHE_MS.
    if (cached && cached.snapshot.expiresAt <= Date.now()) this.projectLists.delete(worker.userId);
    return (await this.projectLists.get(worker.userId, () => this.loadProjects(worker)))?.list ?? [];
  }

  /** Forgets this worker's cached list, after something they did that changes it. */
  forgetProjects(worker: SessionPrincipal): void {
    this.projectLists.delete(worker.userId);
  }

  /**
   * The snapshot to build lists from: the kept one while it is fresh and the database has committed
   * nothing since it was read (its pg_current_snapshot(), compared in a statement that reads no table),
   * else the read in flight if it began after the change was seen, else a new read, begun at least
   * SNAPSHOT_MIN_GAP_MS after the previous one. One read at a time; every caller waiting shares it.
   */
  private async currentSnapshot(): Promise<ProjectsSnapshot> {
    const kept = this.snapshot;
    const asked = Date.now();
    if (kept && asked < kept.expiresAt) {
      const [{ db }]: Array<{ db: string }> = await this.db.query('SELECT pg_current_snapshot()::text AS db');
      if (db === kept.dbSnapshot) return kept;
      // A read begun after this question shows what it found committed (but for a commit in the
      // milliseconds it took, as if the request had come that much sooner): the burst of workers who
      // found the same change share one read.
      this.changedAt = Math.max(this.changedAt, asked);
    }
    for (;;) {
      const now = Date.now();
      const latest = this.snapshot;
      if (latest && latest.startedAt > this.changedAt && now < latest.expiresAt) return latest;
      const load = this.snapshotLoad;
      if (load && load.startedAt > this.changedAt) return load.promise;
      if (load) {
        await load.promise.catch(() => undefined);
        continue;
      }
      const gap = Math.min(Math.max(SNAPSHOT_MIN_GAP_MS, this.lastReadMs), this.ttlMs);
      const wait = Math.max((latest?.startedAt ?? 0) + gap, this.changedAt + 1) - now;
      if (wait > 0) {
        await new Promise((resolve) => setTimeout(resolve, wait));
        continue;
      }
      const started = { startedAt: now, promise: this.loadSnapshot(now) };
      this.snapshotLoad = started;
      try {
        return await started.promise;
      } finally {
        if (this.snapshotLoad === started) this.snapshotLoad = undefined;
      }
    }
  }

  private async loadSnapshot(startedAt: number): Promise<ProjectsSnapshot> {
    const rows: Array<{
      id: string;
      account_id: string;
      display_name: string;
      display_short_description: string;
      taken_at: string;
      db_snapshot: string;
      available: string;
      high: Bucket[];
      low: Bucket[];
      times: Bucket[];
    }> = await this.db.query(PROJECTS_SNAPSHOT_SQL);
    this.lastReadMs = Date.now() - startedAt;
    // With no row, nothing tells whether anything was committed since: such a snapshot is read again.
    const snapshot: ProjectsSnapshot = {
      dbSnapshot: rows[0]?.db_snapshot ?? '',
      // With no row, no task can be taken off it: any moment will do.
      takenAt: rows[0]?.taken_at ?? new Date().toISOString(),
      startedAt,
      expiresAt: Date.now() + this.ttlMs,
      projects: rows.map((r) => ({
        id: r.id,
        accountId: r.account_id,
        displayName: r.display_name,
        description: r.display_short_description,
        available: Number(r.available),
        high: r.high,
        low: r.low,
        times: r.times,
      })),
    };
    const chars = projectsChars(snapshot.projects, (p) => [p.displayName, p.description]);
    // Over the bound it answers the calls that waited for it, and is not kept (nor are lists made from it).
    if (chars > MAX_CACHED_LIST_CHARS) snapshot.expiresAt = 0;
    else if (startedAt >= (this.snapshot?.startedAt ?? 0)) this.snapshot = snapshot;
    return snapshot;
  }

  private async loadProjects(worker: SessionPrincipal): Promise<CachedList | undefined> {
    const snapshot = await this.currentSnapshot();
    const rows: Array<{ kind: 'blocked' | 'archived' | 'taken'; id: string; reward: number | null; secs: number | null }> = await this.db.query(
      WORKER_PART_SQL,
      [worker.userId, snapshot.takenAt],
    );
    const blocked = new Set<string>();
    const archived = new Set<string>();
    const taken = new Map<string, Array<{ reward: number; secs: number }>>();
    for (const r of rows) {
      if (r.kind === 'blocked') blocked.add(r.id);
      else if (r.kind === 'archived') archived.add(r.id);
      else taken.set(r.id, [...(taken.get(r.id) ?? []), { reward: r.reward as number, secs: r.secs as number }]);
    }
    const entries: Array<WorkProjectResponse & { rank: number }> = [];
    const inexact: string[] = [];
    snapshot.projects.forEach((p, rank) => {
      if (p.accountId === worker.accountId || blocked.has(p.accountId) || archived.has(p.id)) return;
      const mine = taken.get(p.id) ?? [];
      const available = p.available - mine.length;
      if (available <= 0) return;
      const reward = firstLeft(p.high, mine.map((m) => m.reward));
      const minReward = firstLeft(p.low, mine.map((m) => m.reward));
      const secs = firstLeft(p.times, mine.map((m) => m.secs));
      if (reward === undefined || minReward === undefined || secs === undefined) {
        // Every task of the kept values is one they leased: the values left are not in the snapshot.
        inexact.push(p.id);
        return;
      }
      entries.push({
        uuid: p.id,
        display_name: p.displayName,
        display_short_description: p.description,
        reward,
        min_reward: minReward,
        allowed_completion_time_seconds: secs,
        available_task_count: available,
        rank,
      });
    });
    if (inexact.length > 0) {
      const exact = await this.exactProjects(worker, inexact);
      for (const e of exact) {
        const p = snapshot.projects.findIndex((s) => s.id === e.uuid);
        // The snapshot's count, less their own: the same count as the projects read from it.
        const found = snapshot.projects[p];
        entries.push({ ...e, available_task_count: found.available - (taken.get(found.id)?.length ?? 0), rank: p });
      }
    }
    entries.sort((a, b) => b.reward - a.reward || a.rank - b.rank);
    const list = entries.map(({ rank: _rank, ...entry }) => entry);
    // A list from a snapshot that is not kept is not kept either: the next call reads a new one.
    return snapshot.expiresAt > Date.now() ? { snapshot, list } : { snapshot: { ...snapshot, expiresAt: 0 }, list };
  }

  /**
   * The rare project whose kept rewards or times this worker leased every task of: its range read as
   * before the snapshot, for that project alone (the tasks they never leased), through its own open tasks.
   */
  private async exactProjects(worker: SessionPrincipal, projectIds: string[]): Promise<WorkProjectResponse[]> {
    const rows: Array<{ id: string; display_name: string; display_short_description: string; reward: number; min_reward: number; secs: number }> =
      await this.db.query(
        `SELECT p.id, p.display_name, p.display_short_description, max(t.reward) AS reward, min(t.reward) AS min_reward,
                min(t.allowed_completion_time_seconds) AS secs
           FROM tasks t JOIN projects p ON p.id = t.project_id
          WHERE t.project_id = ANY($2::uuid[]) AND t.completed_at IS NULL AND t.cancelled_at IS NULL
            AND NOT EXISTS (SELECT 1 FROM checkouts own WHERE own.task_id = t.id AND own.worker_id = $1)
            AND ${TASK_HAS_FREE_SLOT_SQL}
          GROUP BY p.id`,
        [worker.userId, projectIds],
      );
    return rows.map((r) => ({
      uuid: r.id,
      display_name: r.display_name,
      display_short_description: r.display_short_description,
      reward: Number(r.reward),
      min_reward: Number(r.min_reward),
      allowed_completion_time_seconds: r.secs,
      available_task_count: 0,
    }));
  }

  /** GET /api/work/earnings: every submission is credited its task's reward when it is accepted. */
  async earnings(worker: SessionPrincipal): Promise<EarningsResponse> {
    const rows: Array<{ id: string; display_name: string; n: string; cents: string }> = await this.db.query(
      `SELECT p.id, p.display_name, count(*) AS n, sum(s.reward) AS cents
         FROM submissions s JOIN tasks t ON t.id = s.task_id JOIN projects p ON p.id = t.project_id
        WHERE s.worker_id = $1
        GROUP BY p.id
        ORDER BY max(s.created_at) DESC, p.id`,
      [worker.userId],
    );
    const projects = rows.map((r) => ({
      project_uuid: r.id,
      display_name: r.display_name,
      submission_count: Number(r.n),
      earned_cents: Number(r.cents),
    }));
    return {
      submission_count: projects.reduce((sum, p) => sum + p.submission_count, 0),
      earned_cents: projects.reduce((sum, p) => sum + p.earned_cents, 0),
      projects,
    };
  }
}
