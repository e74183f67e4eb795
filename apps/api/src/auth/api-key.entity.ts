import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from 'typeorm';
import { Account } from './account.entity';

export type ApiKeyMode = 'test' | 'live';

/** A requester API key. The secret is shown once at creation; only its SHA-256 is kept. */
@Entity('api_keys')
@Unique('uq_api_keys_secret_hash', ['secretHash'])
@Index('ix_api_keys_account', ['accountId'])
@Check('ck_api_keys_mode', `"mode" IN ('test', 'live')`)
export class ApiKey {
  @PrimaryColumn('uuid', { primaryKeyConstraintName: 'pk_api_keys' })
  id!: string;

  @Column('uuid')
  accountId!: string;

  @ManyToOne(() => Account, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'fk_api_keys_account' })
  account?: Account;

  @Column('text')
  mode!: ApiKeyMode;

  /** The first characters of the secret (`cb_live_AbCd`), enough to recognise a key in a list. */
  @Column('text')
  prefix!: string;

  @Column('text')
  secretHash!: string;

  @Column('timestamptz', { default: () => 'now()' })
  createdAt!: Date;

  @Column('timestamptz', { nullable: true })
  revokedAt!: Date | null;

  @Column('timestamptz', { nullable: true })
  lastUsedAt!: Date | null;
}
