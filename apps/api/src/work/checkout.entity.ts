import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from 'typeorm';
import { User } from '../auth/user.entity';
import type { TaskProblem } from '@crowdbox/contracts';
import { Task } from '../tasks/task.entity';

export type CheckoutState = 'active' | 'submitted' | 'released' | 'expired' | 'cancelled';

/** A worker's lease on a task. UNIQUE(task, worker): nobody holds or answers the same task twice. */
@Entity('checkouts')
@Unique('uq_checkouts_task_worker', ['taskId', 'workerId'])
@Index('ix_checkouts_worker_state', ['workerId', 'state'])
@Index('ix_checkouts_active_expiry', ['expiresAt'], { where: `state = 'active'` })
@Index('ix_checkouts_active_task', ['taskId', 'expiresAt'], { where: `state = 'active'` })
@Check('ck_checkouts_state', `"state" IN ('active', 'submitted', 'released', 'expired', 'cancelled')`)
@Index('ix_checkouts_problem', ['taskId'], { where: `problem IS NOT NULL` })
@Check(
  'ck_checkouts_problem',
  `"problem" IS NULL OR ("problem" IN ('image_broken', 'unclear_instructions', 'offensive_content', 'other') AND "state" IN ('released', 'expired', 'cancelled'))`,
)
export class Checkout {
  @PrimaryColumn('uuid', { primaryKeyConstraintName: 'pk_checkouts' })
  id!: string;

  @Column('uuid')
  taskId!: string;

  @ManyToOne(() => Task, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'task_id', foreignKeyConstraintName: 'fk_checkouts_task' })
  task?: Task;

  @Column('uuid')
  workerId!: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'worker_id', foreignKeyConstraintName: 'fk_checkouts_worker' })
  worker?: User;

  @Column('timestamptz', { default: () => 'now()' })
  checkedOutAt!: Date;

  @Column('timestamptz')
  expiresAt!: Date;

  @Column('text', { default: 'active' })
  state!: CheckoutState;

  @Column('timestamptz', { nullable: true })
  endedAt!: Date | null;

  /** What the worker reported wrong with the task when giving it back (docs/decisions.md, "Problem reports"). */
  @Column('text', { nullable: true })
  problem!: TaskProblem | null;
}
