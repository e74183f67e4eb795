import DataLoader from 'dataloader';
import type { PoolClient } from 'pg';
import type { DataSource } from 'typeorm';
import { ASYNC_COMMIT } from '../database/async-commit';
import { runPrepared, type PreparedStatement } from '../database/prepared-statement';
import { TASK_COMPLETED_SQL, type TaskCompletedRow } from './event-payload';
import { accountDeletedSql } from './deleted-account';
import { signingSecretsSql } from './signing';

export interface EventRow {
  event_id: string;
  event_state: string;
  attempt_count: number;
  /** Passed back with the attempt's record (AttemptRecord.redeliveries). */
  redeliveries: number;
  body: string | null;
  event_created_at: Date;
  url: string | null;
  endpoint_state: string | null;
  /** The account's signing secrets (signingSecretsSql): the current one, and the one it replaced while that still signs. */
  secrets: string[];
  /** The account was deleted (docs/decisions.md, "Deleting an account"): nothing more goes to its addresses. */
  account_deleted: boolean;
  /** The task's columns (TASK_COMPLETED_SQL) when the body is still to be built; null otherwise. */
  task: TaskCompletedRow | null;
}

/** One attempt's outcome, and where it leaves its event. */
export interface AttemptRecord {
  attemptId: string;
  eventId: string;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  excerpt: string | null;
  attemptCount: number;
  state: 'delivered' | 'pending' | 'failed';
  /** Until the next attempt, when the state is pending. */
  delayMs: number;
  /** Stored on the first attempt so that every later one sends the same bytes. */
  body: string;
  /** The event's `redeliveries` as the attempt read it: if a redeliver moved it since, the event is left as the redeliver set it. */
  redeliveries: number;
}

/**
 * The events, where each goes, the secret, and (first attempt only) what the body is built from.
 * Prepared, like every statement on this path: the task's subqueries make it costly to plan.
 */
const READ_EVENTS: PreparedStatement = {
  name: 'webhook_delivery_read_events',
  text: `
    SELECT e.id AS event_id, e.state AS event_state, e.attempt_count, e.redeliveries, e.body, e.created_at AS event_created_at,
           ep.url, ep.state AS endpoint_state, ${signingSecretsSql('a')} AS secrets, ${accountDeletedSql('e.account_id')} AS account_deleted,
           CASE WHEN e.body IS NULL THEN
             (SELECT row_to_json(x) FROM (SELECT ${TASK_COMPLETED_SQL} FROM tasks t JOIN projects p ON p.id = t.project_id
                                            WHERE t.id = e.task_id) x)
           END AS task
      FROM webhook_events e JOIN accounts a ON a.id = e.account_id
      LEFT JOIN webhook_endpoints ep ON ep.id = e.endpoint_id
     WHERE e.id = ANY($1::uuid[])`,
};

/**
 * Logs the attempts and moves their events on (delivered, failed, or pending until the next time),
 * without waiting for the disk (ASYNC_COMMIT): a crash that loses this write leaves the events pending
 * as they were, and the relay sends them again, which at-least-once delivery allows (the receiver
 * tells a repeat by its webhook-id). What such a crash loses is the log line of an attempt. An event
 * redelivered while its attempt was in flight (`redeliveries` moved) keeps the redeliver's reset; the
 * attempt is still logged. RETURNING names the events moved on.
 */
const RECORD_ATTEMPTS: PreparedStatement = {
  name: 'webhook_delivery_record_attempts',
  text: `
    WITH input AS (
      SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::int[], $4::int[], $5::text[], $6::text[], $7::int[], $8::text[],
                           $9::double precision[], $10::text[], $11::int[])
        AS i(attempt_id, event_id, status_code, duration_ms, error, excerpt, attempt_count, state, delay_ms, body, redeliveries)
    ), attempt AS (
      INSERT INTO webhook_attempts (id, event_id, status_code, duration_ms, error, response_excerpt)
      SELECT attempt_id, event_id, status_code, duration_ms, error, excerpt FROM input
    )
    UPDATE webhook_events e
       SET attempt_count = i.attempt_count, state = i.state, last_error = i.error, body = coalesce(e.body, i.body),
           next_attempt_at = CASE WHEN i.state = 'pending' THEN now() + make_interval(secs => i.delay_ms / 1000) END,
           delivered_at = CASE WHEN i.state = 'delivered' THEN now() END
      FROM input i, ${ASYNC_COMMIT}
     WHERE e.id = i.event_id AND e.redeliveries = i.redeliveries
    RETURNING e.id`,
};

/**
 * Moves the next attempt of events whose receiver was busy to when their job comes back ($2, ms from
 * now), unless the event moved since its read: a redeliver reset it ($3), or its job, back from the
 * queue before this write ran, already made an attempt ($4), whose time must stand. Nothing was sent, so nothing is logged;
 * but the row must say when the event goes next: the console shows it, and the relay takes an event whose
 * time is past for one whose job was lost, so a slow receiver's backlog, left at its first time, filled
 * every page of every relay pass (oldest first) and kept the relay from the events after it. Without
 * waiting for the disk (ASYNC_COMMIT): a crash that loses it leaves the old time, which the relay reads as
 * overdue and re-adds the job, a no-op while it is queued.
 */
const DEFER_EVENTS: PreparedStatement = {
  name: 'webhook_delivery_defer_events',
  text: `
    UPDATE webhook_events e SET next_attempt_at = now() + make_interval(secs => i.delay_ms / 1000)
      FROM unnest($1::uuid[], $2::double precision[], $3::int[], $4::int[]) AS i(event_id, delay_ms, redeliveries, attempt_count), ${ASYNC_COMMIT}
     WHERE e.id = i.event_id AND e.state = 'pending' AND e.redeliveries = i.redeliveries AND e.attempt_count = i.attempt_count`,
};

/** An event whose receiver was busy: its job waits `delayMs` in the queue (ReceiverSlots). */
export interface Deferral {
  eventId: string;
  delayMs: number;
  /** The event's `redeliveries` as the delivery read it (AttemptRecord.redeliveries). */
  redeliveries: number;
  /** The event's `attempt_count` as the delivery read it. */
  attemptCount: number;
}

/** Most rows one statement takes: past this, a batch's round trip no longer saves anything worth its size. */
const MAX_BATCH = 100;

/**
 * The delivery's two statements, each run once for all the deliveries that reach it in the same turn of
 * the event loop: with many deliveries in flight, one read and one write (a single commit, so a single
 * WAL flush) serve a batch instead of one delivery. Nothing waits for a batch to fill: it goes at the end
 * of the turn, so a lone delivery is not delayed. A batch that fails is run again one row at a time, so
 * one bad row fails its own delivery only.
 */
export class DeliveryBatches {
  private readonly reads: DataLoader<string, EventRow | undefined>;
  private readonly records: DataLoader<AttemptRecord, boolean>;
  private readonly deferrals: DataLoader<Deferral, void>;

  /** `db`: the app's DataSource; a test may pin the statements to one connection instead. */
  constructor(db: DataSource | PoolClient) {
    const readEvents = async (ids: readonly string[]) => {
      const rows = await runPrepared<EventRow>(db, READ_EVENTS, [ids]);
      const byId = new Map(rows.map((row) => [row.event_id, row]));
      return ids.map((id) => byId.get(id));
    };
    const recordAttempts = async (records: readonly AttemptRecord[]) => {
      const moved = await runPrepared<{ id: string }>(db, RECORD_ATTEMPTS, [
        records.map((r) => r.attemptId),
        records.map((r) => r.eventId),
        records.map((r) => r.statusCode),
        records.map((r) => r.durationMs),
        records.map((r) => r.error),
        records.map((r) => r.excerpt),
        records.map((r) => r.attemptCount),
        records.map((r) => r.state),
        records.map((r) => r.delayMs),
        records.map((r) => r.body),
        records.map((r) => r.redeliveries),
      ]);
      const applied = new Set(moved.map((row) => row.id));
      return records.map((r) => applied.has(r.eventId));
    };
    const deferEvents = async (deferrals: readonly Deferral[]) => {
      await runPrepared(db, DEFER_EVENTS, [
        deferrals.map((d) => d.eventId),
        deferrals.map((d) => d.delayMs),
        deferrals.map((d) => d.redeliveries),
        deferrals.map((d) => d.attemptCount),
      ]);
      return deferrals.map(() => undefined);
    };
    const options = { cache: false, maxBatchSize: MAX_BATCH, batchScheduleFn: (flush: () => void) => setImmediate(flush) };
    this.reads = new DataLoader(rowByRowOnFailure(readEvents), options);
    this.records = new DataLoader(rowByRowOnFailure(recordAttempts), options);
    this.deferrals = new DataLoader(rowByRowOnFailure(deferEvents), options);
  }

  /** The event with what its delivery needs; undefined when there is no such event. */
  readEvent(eventId: string): Promise<EventRow | undefined> {
    return this.reads.load(eventId);
  }

  /**
   * Logs the attempt, and moves its event on unless a redeliver reset the event since the attempt read
   * it: false then, and the event is as the redeliver left it (pending, due now, a fresh schedule).
   */
  recordAttempt(record: AttemptRecord): Promise<boolean> {
    return this.records.load(record);
  }

  /** Records when the event of a busy receiver goes next (DEFER_EVENTS). */
  recordDeferral(deferral: Deferral): Promise<void> {
    return this.deferrals.load(deferral);
  }
}

/** Runs the batch; if it fails, each key alone, so the failure lands on the key that caused it. */
function rowByRowOnFailure<K, V>(batch: (keys: readonly K[]) => Promise<V[]>) {
  return async (keys: readonly K[]): Promise<Array<V | Error>> => {
    try {
      return await batch(keys);
    } catch (error) {
      if (keys.length === 1) return [error as Error];
      return Promise.all(keys.map((key) => batch([key]).then(([value]) => value, (e: Error) => e)));
    }
  };
}
