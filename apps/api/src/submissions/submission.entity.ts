import { Column, Entity, Index, JoinColumn, ManyToOne, OneToOne, PrimaryColumn, Unique } from 'typeorm';
import { User } from '../auth/user.entity';
import { Checkout } from '../work/checkout.entity';
import { Task } from '../tasks/task.entity';

/** One worker's boxes for one task, in image pixels. */
export interface StoredBox {
  label: string;
  center_x: number;
  center_y: number;
  width: number;
  height: number;
}

@Entity('submissions')
@Unique('uq_submissions_checkout', ['checkoutId'])
@Unique('uq_submissions_task_worker', ['taskId', 'workerId'])
@Index('ix_submissions_worker', ['workerId', 'createdAt'])
export class Submission {
  @PrimaryColumn('uuid', { primaryKeyConstraintName: 'pk_submissions' })
  id!: string;

  @Column('uuid')
  checkoutId!: string;

  @OneToOne(() => Checkout, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'checkout_id', foreignKeyConstraintName: 'fk_submissions_checkout' })
  checkout?: Checkout;

  @Column('uuid')
  taskId!: string;

  @ManyToOne(() => Task, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'task_id', foreignKeyConstraintName: 'fk_submissions_task' })
  task?: Task;

  @Column('uuid')
  workerId!: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'worker_id', foreignKeyConstraintName: 'fk_submissions_worker' })
  worker?: User;

  @Column('jsonb')
  boxes!: StoredBox[];

  @Column('integer')
  imageWidth!: number;

  @Column('integer')
  imageHeight!: number;

  /** Cents credited to the worker for this submission (the task's reward at the time). */
  @Column('integer')
  reward!: number;

  /** SHA-256 of the submitted body, so a repeated identical submit replays the first result. */
  @Column('text')
  requestHash!: string;

  @Column('timestamptz', { default: () => 'now()' })
  createdAt!: Date;
}
