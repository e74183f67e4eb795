import { Check, Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, Unique } from 'typeorm';
import { Account } from '../auth/account.entity';

export type WebhookEndpointState = 'pending' | 'confirmed' | 'failed';

/** A callback address of an account; nothing but the challenge is sent until it is confirmed. */
@Entity('webhook_endpoints')
@Unique('uq_webhook_endpoints_account_url', ['accountId', 'url'])
@Check('ck_webhook_endpoints_state', `"state" IN ('pending', 'confirmed', 'failed')`)
export class WebhookEndpoint {
  @PrimaryColumn('uuid', { primaryKeyConstraintName: 'pk_webhook_endpoints' })
  id!: string;

  @Column('uuid')
  accountId!: string;

  @ManyToOne(() => Account, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'fk_webhook_endpoints_account' })
  account?: Account;

  /** Normalized: lower-case scheme and host, default port dropped. */
  @Column('text')
  url!: string;

  @Column('text', { default: 'pending' })
  state!: WebhookEndpointState;

  @Column('text', { nullable: true })
  challengeToken!: string | null;

  @Column('timestamptz', { nullable: true })
  confirmedAt!: Date | null;

  @Column('timestamptz', { default: () => 'now()' })
  createdAt!: Date;

  @Column('timestamptz', { default: () => 'now()' })
  updatedAt!: Date;
}
