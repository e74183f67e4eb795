import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from 'typeorm';
import { Account } from '../auth/account.entity';
import { User } from '../auth/user.entity';
import { Project } from '../projects/project.entity';

/**
 * A worker the account blocked (docs/decisions.md, "Blocking a worker"): none of the account's tasks is
 * leased to them while this row exists. `project_id` is the project through which the requester named
 * them, whose pseudonym the console lists the block under. The unique (account, worker) pair is also
 * the index the lease's probe and the account's list read.
 */
@Entity('worker_blocks')
@Unique('uq_worker_blocks_account_worker', ['accountId', 'workerId'])
// The accounts that blocked a worker, for their work list (migration 1767800000000).
@Index('ix_worker_blocks_worker', ['workerId', 'accountId'])
export class WorkerBlock {
  @PrimaryColumn('uuid', { primaryKeyConstraintName: 'pk_worker_blocks' })
  id!: string;

  @Column('uuid')
  accountId!: string;

  @ManyToOne(() => Account, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'fk_worker_blocks_account' })
  account?: Account;

  @Column('uuid')
  workerId!: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'worker_id', foreignKeyConstraintName: 'fk_worker_blocks_worker' })
  worker?: User;

  @Column('uuid')
  projectId!: string;

  @ManyToOne(() => Project, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_worker_blocks_project' })
  project?: Project;

  @Column('timestamptz', { default: () => 'now()' })
  createdAt!: Date;
}
