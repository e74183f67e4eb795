import { boxInsideImage } from '@crowdbox/boxes';
import type { Annotation, ErrorItem, LabelInfo, SubmitBody, SubmitResponse } from '@crowdbox/contracts';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ApiException } from '../common/errors/api.exception';
import { requestHash } from '../common/canonical-json';
import { isUuid } from '../common/crypto.util';
import type { SessionPrincipal } from '../common/http/principal';
import { pgTransaction, runPrepared, type PreparedStatement } from '../database/prepared-statement';
import { computeConsensus } from '../submissions/stored-consensus';
import { consensusInputJson, type ConsensusInput } from '../submissions/task-results';
import { WebhookJobs } from '../webhooks/webhook-jobs';
import { LEASE_SQLSTATE, PG_SQLSTATE, sqlState, workErrors } from './lease-errors';

/** A checkout with what submitting it needs to know. */
interface LeaseRow {
  worker_id: string;
  task_id: string;
  state: string;
  live: boolean;
  reward: number;
  labels: LabelInfo[];
  task_cancelled: boolean;
  submission_id: string | null;
  submission_hash: string | null;
  submission_reward: number | null;
}

const READ_LEASE: PreparedStatement = {
  name: 'submit_read_lease',
  text: `
    SELECT c.worker_id, c.task_id, c.state, c.expires_at > now() AS live, t.reward, p.labels,
           t.cancelled_at IS NOT NULL AS task_cancelled,
           s.id AS submission_id, s.request_hash AS submission_hash, s.reward AS submission_reward
      FROM checkouts c
      JOIN tasks t ON t.id = c.task_id
      JOIN projects p ON p.id = t.project_id
      LEFT JOIN submissions s ON s.checkout_id = c.id
     WHERE c.id = $1`,
};

/** What COMPLETE_SUBMISSION answers: threshold and subs only when this submission completed the task. */
interface CompletionRow {
  completed_at: Date | null;
  event_id: string | null;
  threshold: number | null;
  subs: ConsensusInput[] | null;
}

/** The submissions trigger re-checks the lease under its row lock (CB006 when it ended meanwhile). */
const INSERT_SUBMISSION: PreparedStatement = {
  name: 'submit_insert_submission',
  text: `INSERT INTO submissions (id, checkout_id, task_id, worker_id, boxes, image_width, image_height, reward, request_hash)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
};

/**
 * Ends the lease, counts the submission and, when it is the last one, completes the task and writes the
 * `task_completed` outbox event, all in the submit's transaction (DESIGN.md §3: the event exists if and
 * only if the completion committed). The delivery belongs to the webhook-delivery queue.
 */
const COMPLETE_SUBMISSION: PreparedStatement = {
  name: 'submit_count_and_complete',
  text: `
    WITH lease AS (
      UPDATE checkouts SET state = 'submitted', ended_at = now() WHERE id = $1 RETURNING task_id
    ), task AS (
      UPDATE tasks t
         SET submission_count = t.submission_count + 1,
             completed_at = CASE WHEN t.submission_count + 1 = t.required_submissions THEN now() END
        FROM lease WHERE t.id = lease.task_id
      RETURNING t.id, t.project_id, t.completed_at, t.callback_endpoint_id
    ), event AS (
      INSERT INTO webhook_events (id, account_id, endpoint_id, task_id, type, payload, next_attempt_at)
      SELECT $2, p.account_id, task.callback_endpoint_id, task.id, 'task_completed', '{}'::jsonb, now()
        FROM task JOIN projects p ON p.id = task.project_id
       WHERE task.completed_at IS NOT NULL AND task.callback_endpoint_id IS NOT NULL
      RETURNING id
    )
    SELECT task.completed_at, (SELECT id FROM event) AS event_id,
           CASE WHEN task.completed_at IS NOT NULL THEN p.consensus_iou_threshold END AS threshold,
           CASE WHEN task.completed_at IS NOT NULL THEN ${consensusInputJson('task')} END AS subs
      FROM task JOIN projects p ON p.id = task.project_id`,
};

/**
 * The completed task's consensus (its JSON text) and the threshold it was computed with (the project's,
 * read by COMPLETE_SUBMISSION), stored in the same transaction: see submissions/stored-consensus.ts.
 */
const STORE_CONSENSUS: PreparedStatement = {
  name: 'submit_store_consensus',
  text: `UPDATE tasks SET consensus = $2::json, consensus_iou_threshold = $3::real WHERE id = $1`,
};

@Injectable()
export class SubmitService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly webhookJobs: WebhookJobs,
  ) {}

  /** POST /api/work/checkouts/:id/submit */
  async submit(worker: SessionPrincipal, checkoutId: string, body: SubmitBody): Promise<SubmitResponse> {
    const lease = isUuid(checkoutId) ? (await runPrepared<LeaseRow>(this.db, READ_LEASE, [checkoutId]))[0] : undefined;
    // Another worker's checkout is "not found", like a missing one: ids are not an oracle.
    if (!lease || lease.worker_id !== worker.userId) throw workErrors.checkoutNotFound();
    const hash = requestHash('submit', body);
    if (lease.submission_id) return replay(lease, hash);
    assertOpen(lease);
    validateBoxes(body, lease.labels);

    const submissionId = randomUUID();
    let eventId: string | null = null;
    try {
      await pgTransaction(this.db, async (tx) => {
        await runPrepared(tx, INSERT_SUBMISSION, [
          submissionId,
          checkoutId,
          lease.task_id,
          worker.userId,
          JSON.stringify(body.annotations.map(storedBox)),
          body.image_width,
          body.image_height,
          lease.reward,
          hash,
        ]);
        const [done] = await runPrepared<CompletionRow>(tx, COMPLETE_SUBMISSION, [checkoutId, randomUUID()]);
        eventId = done?.event_id ?? null;
        // The submission that completes the task computes its consensus once, for every reader after it
        // (docs/decisions.md, "Consensus stored at completion").
        if (done?.completed_at && done.subs && done.threshold !== null) {
          const { text } = computeConsensus(done.subs, done.threshold);
          await runPrepared(tx, STORE_CONSENSUS, [lease.task_id, text, done.threshold]);
        }
      });
    } catch (error) {
      const code = sqlState(error);
      // The lease ended or was submitted by a concurrent request between the read and the insert:
      // answer from the state that won (a replay, "expired", "released"...).
      if (code === LEASE_SQLSTATE.leaseNotActive || code === LEASE_SQLSTATE.taskClosed || code === PG_SQLSTATE.uniqueViolation) {
        const now = (await runPrepared<LeaseRow>(this.db, READ_LEASE, [checkoutId]))[0];
        if (now?.submission_id) return replay(now, hash);
        if (now) assertOpen(now);
      }
      throw error;
    }
    // After the commit: the event exists for sure. If this enqueue is lost, the outbox relay catches it.
    if (eventId) this.webhookJobs.enqueueDelivery(eventId);
    return { submission_id: submissionId, reward: lease.reward };
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
}

/** Labels from the project, every box inside the image (API.md §3, DESIGN.md §6). */
function validateBoxes(body: SubmitBody, labels: LabelInfo[]): void {
  const known = new Set(labels.map((l) => l.name));
  const image = { width: body.image_width, height: body.image_height };
  const errors: ErrorItem[] = [];
  body.annotations.forEach((box, i) => {
    if (!known.has(box.label)) {
      errors.push({ field: `annotations.${i}.label`, detail: `"${box.label.slice(0, 64)}" is not a label of this project; use one of: ${[...known].join(', ')}` });
    }
    const outside = boxInsideImage(box, image);
    if (outside) errors.push({ field: `annotations.${i}`, detail: `${outside} (image ${image.width}x${image.height})` });
  });
  if (errors.length > 0) throw new ApiException(422, errors);
}

/** Only the five fields of an annotation are stored, in a fixed order. */
function storedBox(box: Annotation): Annotation {
  return { label: box.label, center_x: box.center_x, center_y: box.center_y, width: box.width, height: box.height };
}
