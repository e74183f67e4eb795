import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Project } from '../projects/project.entity';
import { WebhookEndpoint } from '../webhooks/webhook-endpoint.entity';

/**
 * One image to annotate. Free slots are computed from the checkouts (migration 1763900000000-leases
 * explains why and holds the triggers that enforce them); the row keeps the submission count.
 */
@Entity('tasks')
@Index('ix_tasks_project_created', ['projectId', 'createdAt'])
@Index('ix_tasks_project_completed', ['projectId', 'completedAt'])
@Check('ck_tasks_required_submissions', `"required_submissions" BETWEEN 1 AND 100`)
@Check('ck_tasks_reward', `"reward" BETWEEN 0 AND 100000`)
@Check('ck_tasks_completion_time', `"allowed_completion_time_seconds" BETWEEN 30 AND 86400`)
@Index('ix_tasks_open', ['projectId', 'createdAt', 'id'], { where: 'completed_at IS NULL AND cancelled_at IS NULL' })
@Check('ck_tasks_submission_count', `"submission_count" BETWEEN 0 AND "required_submissions"`)
@Check('ck_tasks_completed', `("completed_at" IS NOT NULL) = ("submission_count" = "required_submissions")`)
@Check('ck_tasks_closed_once', `"completed_at" IS NULL OR "cancelled_at" IS NULL`)
@Check(
  'ck_tasks_consensus',
  `("consensus" IS NULL) = ("consensus_iou_threshold" IS NULL) AND ("consensus" IS NULL OR "completed_at" IS NOT NULL)`,
)
@Check('ck_tasks_leased_count', `"leased_count" >= 0`)
@Index('ix_tasks_cancelled', ['projectId', 'createdAt', 'id'], { where: 'cancelled_at IS NOT NULL' })
// The console's complete-task pages, newest first (migration 1767520000000).
@Index('ix_tasks_complete', ['projectId', 'createdAt', 'id'], { where: 'completed_at IS NOT NULL' })
@Index('ix_tasks_reported', ['projectId', 'createdAt', 'id'], { where: 'problem_reports > 0' })
@Check('ck_tasks_problem_reports', `"problem_reports" >= 0`)
@Check('ck_tasks_frame', `("frame_width" IS NULL) = ("frame_height" IS NULL) AND ("frame_width" IS NULL OR "completed_at" IS NOT NULL)`)
export class Task {
  @PrimaryColumn('uuid', { primaryKeyConstraintName: 'pk_tasks' })
  id!: string;

  @Column('uuid')
  projectId!: string;

  @ManyToOne(() => Project, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_tasks_project' })
  project?: Project;

  /** The project's template rendered with this task's substitutions (values HTML-escaped). */
  @Column('text')
  prompt!: string;

  @Column('jsonb', { default: () => `'{}'` })
  substitutions!: Record<string, string>;

  @Column('text', { nullable: true })
  externalImageUrl!: string | null;

  @Column('integer')
  reward!: number;

  @Column('integer')
  requiredSubmissions!: number;

  @Column('integer')
  allowedCompletionTimeSeconds!: number;

  @Column('integer', { default: 0 })
  submissionCount!: number;

  @Column('text', { nullable: true })
  callbackUrl!: string | null;

  /** The account's confirmed-or-pending address for callbackUrl (normalized), where events go. */
  @Column('uuid', { nullable: true })
  callbackEndpointId!: string | null;

  @ManyToOne(() => WebhookEndpoint, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'callback_endpoint_id', foreignKeyConstraintName: 'fk_tasks_callback_endpoint' })
  callbackEndpoint?: WebhookEndpoint;

  @Column('timestamptz', { default: () => 'now()' })
  createdAt!: Date;

  @Column('timestamptz', { nullable: true })
  completedAt!: Date | null;

  @Column('timestamptz', { nullable: true })
  cancelledAt!: Date | null;

  /**
   * The consensus boxes (API.md §5) as the exact JSON text of the answer's `annotations`, written by the
   * submission that completes the task; see migration 1764200000000-stored-consensus. Read by SQL only.
   */
  @Column('json', { nullable: true, select: false })
  consensus!: unknown;

  /** The project's IoU threshold that `consensus` was computed with (NULL with it). */
  @Column('real', { nullable: true, select: false })
  consensusIouThreshold!: number | null;

  /**
   * The version of the consensus rule `consensus` was computed by (CONSENSUS_RULE in
   * submissions/stored-consensus.ts): 1 before a task's boxes were put into one frame, 2 since (migration
   * 1765700000000). Only a stored consensus of the current rule is used; readers replace the others.
   */
  @Column('smallint', { default: 1, select: false })
  consensusRule!: number;

  /**
   * The task's frame, the image size its first submission reported (docs/decisions.md, "One frame per
   * task"), stored with its consensus for COCO's image entries (migration 1765800000000-task-frame);
   * NULL for a task completed before it, whose readers look the first submission up. Read by SQL only.
   */
  @Column('integer', { nullable: true, select: false })
  frameWidth!: number | null;

  @Column('integer', { nullable: true, select: false })
  frameHeight!: number | null;

  /**
   * Checkouts of this task in state `active`, expired or not, and the earliest `expires_at` among them:
   * kept by triggers and the submit, read only by the lease query to skip full tasks (migrations
   * 1764300000000 and 1764500000000). After a submit of the earliest of several leases the expiry is a
   * lower bound (early, never late), until the next lease ends otherwise.
   */
  @Column('integer', { default: 0, select: false })
  leasedCount!: number;

  @Column('timestamptz', { nullable: true, select: false })
  leaseExpiryMin!: Date | null;

  /**
   * Problem reports on this task's leases (docs/decisions.md, "Problem reports"), kept by a trigger on
   * checkouts (migration 1766400000000); ix_tasks_reported lists a project's reported tasks through it.
   */
  @Column('integer', { default: 0, select: false })
  problemReports!: number;
}
