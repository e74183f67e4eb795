import { Check, Column, Index, Entity, JoinColumn, ManyToOne, PrimaryColumn, Unique } from 'typeorm';
import { Account } from '../auth/account.entity';

export const WEBHOOK_ENDPOINT_STATES = ['pending', 'confirmed', 'failed'] as const;
export type WebhookEndpointState = (typeof WEBHOOK_ENDPOINT_STATES)[number];

/** A callback address of an account; nothing but the challenge is sent until it is confirmed. */
@Entity('webhook_endpoints')
@Unique('uq_webhook_endpoints_account_url', ['accountId', 'url'])
@Index('ix_webhook_endpoints_state_next', ['state', 'nextAttemptAt'])
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

  /** Challenge attempts since the address was last armed. */
  @Column('integer', { default: 0 })
  attemptCount!: number;

  /**
   * Pending: when the next challenge attempt is due (the relay re-enqueues overdue ones). Confirmed: set
   * while the events that waited for the address are still being released (parked-events.ts).
   */
  @Column('timestamptz', { nullable: true })
  nextAttemptAt!: Date | null;

  @Column('text', { nullable: true })
  lastError!: string | null;

  @Column('timestamptz', { default: () => 'now()' })
  createdAt!: Date;

  @Column('timestamptz', { default: () => 'now()' })
  updatedAt!: Date;
}
