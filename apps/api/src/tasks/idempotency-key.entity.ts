import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Account } from '../auth/account.entity';

/** The first response to an `Idempotency-Key`, replayed for 24 hours to the same body. */
@Entity('idempotency_keys')
// The hourly pruning's way to the stale records (idempotency-pruning.ts, migration 1767400000000).
@Index('ix_idempotency_keys_created_at', ['createdAt'])
export class IdempotencyKey {
  @PrimaryColumn('uuid', { primaryKeyConstraintName: 'pk_idempotency_keys' })
  accountId!: string;

  @PrimaryColumn('text', { primaryKeyConstraintName: 'pk_idempotency_keys' })
  key!: string;

  @ManyToOne(() => Account, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'fk_idempotency_keys_account' })
  account?: Account;

  /** SHA-256 of the route and the canonical body: the same key with another body is refused. */
  @Column('text')
  requestHash!: string;

  @Column('integer')
  responseStatus!: number;

  /** json, not jsonb: jsonb would reorder the fields of the replayed response (migration 1765200000000). */
  @Column('json')
  responseBody!: unknown;

  @Column('timestamptz', { default: () => 'now()' })
  createdAt!: Date;
}
