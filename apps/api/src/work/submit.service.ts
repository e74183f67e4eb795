import { boxInsideImage } from '@crowdbox/boxes';
import { LIMITS, maxBoxesPerSubmission, type Annotation, type ErrorItem, type LabelInfo, type SubmitBody, type SubmitResponse } from '@crowdbox/contracts';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ApiException } from '../common/errors/api.exception';
import { requestHash } from '../common/canonical-json';
import { isUuid } from '../common/crypto.util';
import type { SessionPrincipal } from '../common/http/principal';
import { pgPool, runPrepared, type PreparedStatement } from '../database/prepared-statement';
import { CONSENSUS_RULE, computeConsensus, soloConsensusText, storeConsensus } from '../submissions/stored-consensus';
import type { ConsensusInput } from '../submissions/task-results';
import { WebhookJobs } from '../webhooks/webhook-jobs';
import { CheckoutExpiryScheduler } from './checkout-expiry.scheduler';
import { PG_SQLSTATE, sqlState } from '../common/errors/sql-state';
import { LEASE_SQLSTATE, workErrors } from './lease-errors';

/** A checkout with what submitting it needs to know. */
interface LeaseRow {
  worker_id: string;
  task_id: string;
  state: string;
  live: boolean;
  reward: number;
  labels: LabelInfo[];
  required_submissions: number;
  task_cancelled: boolean;
  task_completed: boolean;
  submission_id: string | null;
  submission_hash: string | null;
  submission_reward: number | null;
}

const READ_LEASE: PreparedStatement = {
  name: 'submit_read_lease',
  text: `
    SELECT c.worker_id, c.task_id, c.state, c.expires_at > now() AS live, t.reward, p.labels, t.required_submissions,
           t.cancelled_at IS NOT NULL AS task_cancelled, t.completed_at IS NOT NULL AS task_completed,
           s.id AS submission_id, s.request_hash AS submission_hash, s.reward AS submission_reward
      FROM checkouts c
      JOIN tasks t ON t.id = c.task_id
      JOIN projects p ON p.id = t.project_id
      LEFT JOIN submissions s ON s.checkout_id = c.id
     WHERE c.id = $1`,
};

/** What SUBMIT answers when it wrote the submission; the last three only when it completed the task. */
interface SubmittedRow {
  task_id: string;
  reward: number;
  completed_at: Date | null;
  event_id: string | null;
  threshold: number | null;
  required: number | null;
  /**
   * The task's submissions, this one included, read after the completion took the task row; null
   * for a task of one submission, whose consensus SUBMIT stored itself.
   */
  subs: ConsensusInput[] | null;
}

/**
 * The whole submit in one autocommit statement (docs/decisions.md, "Submit in one statement"): the
 * submission is written only for this worker's live lease of a task whose project has every label
 * used ($8, `[{"name": …}]`) and that takes this many boxes in a submission ($11, largestTaskFor);
 * then the lease ends, the task counts it (and takes it off its lease
 * count, which no trigger does for a submit: migration 1764500000000) and, when it is the last one,
 * completes with its `task_completed` outbox event (DESIGN.md §3: the event exists if and only if the
 * completion committed). `ended` reads `submitted`, so the submissions trigger sees the lease still
 * active and locks it before it ends. No row back means nothing was written: the caller finds out why.
 * A closed task is left to the submissions trigger (CB001): a condition on the task's completed_at
 * and cancelled_at here matches ix_tasks_open's predicate, and the generic plan of a freshly filled
 * table then walked every open task to find this one (measured: 48 ms of PostgreSQL per submit).
 * The project is read once, in `lease`. A completion of several submissions reads them through
 * task_consensus_inputs (migrations 1764700000000 and 1765700000000), which sees those that committed while this
 * statement waited for the task row. A task of one submission stores its consensus here ($10,
 * soloConsensusText): with k = 1 it depends on nothing but these boxes, so it saves the completion a
 * transaction (docs/decisions.md, "Consensus stored at completion").
 */
const SUBMIT: PreparedStatement = {
  name: 'submit_write',
  text: `
    WITH lease AS (
      SELECT c.id, c.task_id, t.reward, p.account_id, p.consensus_iou_threshold
        FROM checkouts c
        JOIN tasks t ON t.id = c.task_id
        JOIN projects p ON p.id = t.project_id
       WHERE c.id = $1 AND c.worker_id = $2 AND c.state = 'active' AND c.expires_at > now()
         AND p.labels @> $8::jsonb AND t.required_submissions <= $11::int
    ), submitted AS (
      INSERT INTO submissions (id, checkout_id, task_id, worker_id, boxes, image_width, image_height, reward, request_hash)
      SELECT $3, lease.id, lease.task_id, $2, $4::jsonb, $5, $6, lease.reward, $7 FROM lease
      RETURNING id, checkout_id, task_id, reward
    ), ended AS (
      UPDATE checkouts c SET state = 'submitted', ended_at = now()
        FROM submitted WHERE c.id = submitted.checkout_id
      RETURNING c.task_id
    ), task AS (
      UPDATE tasks t
         SET submission_count = t.submission_count + 1,
             completed_at = CASE WHEN t.submission_count + 1 = t.required_submissions THEN now() END,
             -- The lease leaves the count here, not in a trigger (migration 1764500000000).
             leased_count = t.leased_count - 1,
             lease_expiry_min = CASE WHEN t.leased_count > 1 THEN t.lease_expiry_min END,
             -- A task of one submission: its consensus is this one's boxes ($10), stored as it completes.
             consensus = CASE WHEN t.required_submissions = 1 THEN $10::json ELSE t.consensus END,
             consensus_iou_threshold = CASE WHEN t.required_submissions = 1 THEN lease.consensus_iou_threshold
                                            ELSE t.consensus_iou_threshold END,
             consensus_rule = CASE WHEN t.required_submissions = 1 THEN ${CONSENSUS_RULE} ELSE t.consensus_rule END,
             -- ... and its frame, this submission's image size (stored-consensus.ts STORE_FRAME).
             frame_width = CASE WHEN t.required_submissions = 1 THEN $5 ELSE t.frame_width END,
             frame_height = CASE WHEN t.required_submissions = 1 THEN $6 ELSE t.frame_height END
        FROM ended CROSS JOIN lease WHERE t.id = ended.task_id
      RETURNING t.id, t.completed_at, t.callback_endpoint_id, t.required_submissions
    ), event AS (
      INSERT INTO webhook_events (id, account_id, endpoint_id, task_id, type, payload, next_attempt_at)
      SELECT $9, lease.account_id, task.callback_endpoint_id, task.id, 'task_completed', '{}'::jsonb, now()
        FROM task CROSS JOIN lease
       WHERE task.completed_at IS NOT NULL AND task.callback_endpoint_id IS NOT NULL
      RETURNING id
    )
    SELECT task.id AS task_id, submitted.reward, task.completed_at, (SELECT id FROM event) AS event_id,
           CASE WHEN task.completed_at IS NOT NULL THEN lease.consensus_iou_threshold END AS threshold,
           CASE WHEN task.completed_at IS NOT NULL THEN task.required_submissions END AS required,
           CASE WHEN task.completed_at IS NOT NULL AND task.required_submissions > 1 THEN task_consensus_inputs(task.id) END AS subs
      FROM submitted CROSS JOIN task CROSS JOIN lease`,
};

/** SQLSTATEs that mean the lease changed under the submit: answered from the state that won. */
const LOST_RACE = new Set<string>([LEASE_SQLSTATE.leaseNotActive, LEASE_SQLSTATE.taskClosed, PG_SQLSTATE.uniqueViolation]);

/** Attempts at writing a submission whose lease still looks open when read back; then 409. */
const MAX_WRITES = 3;

@Injectable()
export class SubmitService {
  private readonly logger = new Logger(SubmitService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly webhookJobs: WebhookJobs,
    private readonly expiry: CheckoutExpiryScheduler,
  ) {}

  /**
   * POST /api/work/checkouts/:id/submit. The common case is one statement (SUBMIT); when it writes
   * nothing, or loses a race, the lease is read to answer exactly why (not found, a replay, expired,
   * released, cancelled, a box's error) in that order, and a submission that passes every check is
   * written again.
   */
  async submit(worker: SessionPrincipal, checkoutId: string, body: SubmitBody): Promise<SubmitResponse> {
    if (!isUuid(checkoutId)) throw workErrors.checkoutNotFound();
    const hash = requestHash('submit', body);
    const write = this.writer(worker, checkoutId, body, hash);
    // Boxes outside the image go straight to the checks, which answer them after "not found" and replays.
    if (boxErrors(body).length === 0) {
      const written = await write();
      if (written) return written;
    }
    for (let attempt = 1; attempt <= MAX_WRITES; attempt++) {
      const lease = (await runPrepared<LeaseRow>(this.db, READ_LEASE, [checkoutId]))[0];
      // Another worker's checkout is "not found", like a missing one: ids are not an oracle.
      if (!lease || lease.worker_id !== worker.userId) throw workErrors.checkoutNotFound();
      if (lease.submission_id) return replay(lease, hash);
      assertOpen(lease);
      validateBoxes(body, lease);
      const written = await write();
      if (written) return written;
    }
    throw ApiException.of(409, 'root', 'the checkout changed while it was being submitted; submit again');
  }

  /** SUBMIT for this request: its answer, or undefined when it wrote nothing or lost a race. */
  private writer(worker: SessionPrincipal, checkoutId: string, body: SubmitBody, hash: string): () => Promise<SubmitResponse | undefined> {
    const stored = body.annotations.map(storedBox);
    const boxes = JSON.stringify(stored);
    const labels = JSON.stringify([...new Set(body.annotations.map((box) => box.label))].map((name) => ({ name })));
    const solo = soloConsensusText(worker.userId, stored, { width: body.image_width, height: body.image_height });
    const tasksTaking = largestTaskFor(body.annotations.length);
    return async () => {
      const submissionId = randomUUID();
      let row: SubmittedRow | undefined;
      try {
        [row] = await runPrepared<SubmittedRow>(this.db, SUBMIT, [
          checkoutId,
          worker.userId,
          submissionId,
          boxes,
          body.image_width,
          body.image_height,
          hash,
          labels,
          randomUUID(),
          solo,
          tasksTaking,
        ]);
      } catch (error) {
        // The lease ended, or was submitted by a concurrent request, between SUBMIT's read and its write.
        if (LOST_RACE.has(sqlState(error) ?? '')) return undefined;
        throw error;
      }
      if (!row) return undefined;
      this.expiry.ended(checkoutId);
      // SUBMIT stored a one-submission task's consensus itself (subs null); several are computed here.
      if (row.completed_at && row.subs) await this.storeConsensus(row);
      // After the commit: the event exists for sure. If this enqueue is lost, the outbox relay catches it.
      if (row.event_id) this.webhookJobs.enqueueDelivery(row.event_id);
      return { submission_id: submissionId, reward: row.reward };
    };
  }

  /**
   * The submission that completed a task computes its consensus once, for every reader after it
   * (docs/decisions.md, "Consensus stored at completion"), before it answers and before the webhook
   * job reads it. A cache fill: should it fail, or the process die first, readers compute and store it.
   */
  private async storeConsensus(row: SubmittedRow): Promise<void> {
    const { subs, threshold } = row as { subs: ConsensusInput[]; threshold: number };
    // A complete task has exactly `required` submissions; anything else is left to the readers.
    if (subs.length !== row.required) {
      this.logger.warn(`task ${row.task_id} completed with ${subs.length} of ${row.required} submissions read; its consensus is left to readers`);
      return;
    }
    try {
      const { text, frame } = computeConsensus(subs, threshold);
      await storeConsensus(pgPool(this.db), threshold, [{ id: row.task_id, text, frame }]);
    } catch (error) {
      this.logger.warn(`storing the consensus of task ${row.task_id} failed: ${(error as Error).message}`);
    }
  }
}

/** The same body again answers the first result; another body cannot change a submission. */
function replay(lease: LeaseRow, hash: string): SubmitResponse {
  if (lease.submission_hash !== hash) throw workErrors.alreadySubmitted();
  return { submission_id: lease.submission_id as string, reward: lease.submission_reward as number };
}

function assertOpen(lease: LeaseRow): void {
  if (lease.task_cancelled || lease.state === 'cancelled') throw workErrors.cancelled();
  if (lease.state === 'released') throw workErrors.released();
  if (lease.state === 'expired' || !lease.live) throw workErrors.expired();
  // A lease taken at the very instant another worker's lease ran out, while that worker's submit of it,
  // begun just before, completed the task: this lease can never be submitted.
  if (lease.task_completed) throw workErrors.completed();
}

/**
 * No more boxes than the task takes in a submission (docs/decisions.md, "A task holds at most 4,000
 * boxes"), labels from the project, every box inside the image (API.md §3, DESIGN.md §6).
 */
function validateBoxes(body: SubmitBody, lease: LeaseRow): void {
  const max = maxBoxesPerSubmission(lease.required_submissions);
  const errors = boxErrors(body, lease.labels);
  if (body.annotations.length > max) {
    errors.unshift({
      field: 'annotations',
      detail: `must hold at most ${max} boxes in this task (its ${lease.required_submissions} submissions hold at most ${LIMITS.boxesPerTask} in all)`,
    });
  }
  if (errors.length > 0) throw new ApiException(422, errors);
}

/**
 * The largest required_submissions of a task that takes `boxes` boxes in one submission (0: none does),
 * for SUBMIT's condition: maxBoxesPerSubmission only falls as a task needs more submissions. A submit
 * over its task's maximum writes nothing, and validateBoxes answers why.
 */
function largestTaskFor(boxes: number): number {
  for (let required = LIMITS.requiredSubmissions.max; required >= LIMITS.requiredSubmissions.min; required--) {
    if (maxBoxesPerSubmission(required) >= boxes) return required;
  }
  return 0;
}

/** Each box's errors in order: its label (when `labels` is given), then its place in the image. */
function boxErrors(body: SubmitBody, labels?: LabelInfo[]): ErrorItem[] {
  const known = labels && new Set(labels.map((l) => l.name));
  const image = { width: body.image_width, height: body.image_height };
  const errors: ErrorItem[] = [];
  body.annotations.forEach((box, i) => {
    if (known && !known.has(box.label)) {
      errors.push({ field: `annotations.${i}.label`, detail: `"${box.label.slice(0, 64)}" is not a label of this project; use one of: ${[...known].join(', ')}` });
    }
    const outside = boxInsideImage(box, image);
    if (outside) errors.push({ field: `annotations.${i}`, detail: `${outside} (image ${image.width}x${image.height})` });
  });
  return errors;
}

/** Only the five fields of an annotation are stored, in a fixed order. */
function storedBox(box: Annotation): Annotation {
  return { label: box.label, center_x: box.center_x, center_y: box.center_y, width: box.width, height: box.height };
}
