import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Account } from '../auth/account.entity';

/** A box label a worker can pick, with the colour the annotator draws it in. */
export interface ProjectLabel {
  name: string;
  color: string;
}

/** API.md §1: the image variable of a project that names none. */
export const DEFAULT_IMAGE_VARIABLE = 'image_url';

@Entity('projects')
@Index('ix_projects_account', ['accountId', 'createdAt'])
@Index('ix_projects_consensus_refresh', ['id'], { where: 'consensus_refresh_pending' })
// The projects archived since the work list's snapshot (migration 1767800000000).
@Index('ix_projects_archived', ['archivedAt'], { where: 'archived_at IS NOT NULL' })
@Check('ck_projects_required_submissions', `"default_required_submissions" BETWEEN 1 AND 100`)
@Check('ck_projects_reward', `"default_reward" BETWEEN 0 AND 100000`)
@Check('ck_projects_completion_time', `"allowed_completion_time_seconds" BETWEEN 30 AND 86400`)
@Check('ck_projects_iou_threshold', `"consensus_iou_threshold" > 0 AND "consensus_iou_threshold" <= 1`)
export class Project {
  @PrimaryColumn('uuid', { primaryKeyConstraintName: 'pk_projects' })
  id!: string;

  @Column('uuid')
  accountId!: string;

  @ManyToOne(() => Account, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'fk_projects_account' })
  account?: Account;

  @Column('text')
  name!: string;

  @Column('text')
  displayName!: string;

  @Column('text')
  displayShortDescription!: string;

  /** Sanitized HTML with `[[variable]]` placeholders. */
  @Column('text')
  template!: string;

  /** Variable name -> default value (null: the task must give one). */
  @Column('jsonb', { default: () => `'{}'` })
  variables!: Record<string, string | null>;

  @Column('jsonb', { default: () => `'[]'` })
  labels!: ProjectLabel[];

  /** Names of labels a PATCH removed: submissions may still hold boxes drawn with them (COCO keeps their categories). */
  @Column('text', { array: true, default: () => `'{}'` })
  retiredLabels!: string[];

  /** The substitution that holds the image URL when a task gives no external_image_url. */
  @Column('text', { default: DEFAULT_IMAGE_VARIABLE })
  imageVariable!: string;

  @Column('integer')
  defaultRequiredSubmissions!: number;

  @Column('integer')
  defaultReward!: number;

  @Column('integer')
  allowedCompletionTimeSeconds!: number;

  @Column('real', { default: () => '0.5' })
  consensusIouThreshold!: number;

  /**
   * The project's stored consensus may not hold: set by a trigger when the threshold changes (migration
   * 1766100000000-consensus-refresh), cleared by the jobs role's consensus refresh. Never read or written
   * through the entity, so a save cannot undo the trigger's mark.
   */
  @Column({ type: 'boolean', default: false, select: false, insert: false, update: false })
  consensusRefreshPending!: boolean;

  @Column('timestamptz', { default: () => 'now()' })
  createdAt!: Date;

  @Column('timestamptz', { default: () => 'now()' })
  updatedAt!: Date;

  /**
   * When the requester archived it (migration 1766800000000); null while in use. An archived project
   * takes no tasks and is offered to no worker; its data stays readable. Written only by
   * ProjectsService.archive/unarchive, in SQL.
   */
  @Column({ type: 'timestamptz', nullable: true, insert: false, update: false })
  archivedAt!: Date | null;
}
