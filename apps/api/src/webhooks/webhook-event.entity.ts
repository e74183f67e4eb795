import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Account } from '../auth/account.entity';
import { Task } from '../tasks/task.entity';
import { WebhookEndpoint } from './webhook-endpoint.entity';

export type WebhookEventState = 'pending' | 'delivered' | 'failed';

/** The transactional outbox: written in the transaction that completes a task, delivered by BullMQ. */
@Entity('webhook_events')
// Partial (migration 1764600000000): only pending events are looked up by their time or their address.
// (next_attempt_at, id), migration 1765100000000: the relay's keyset pages are ordered range scans.
@Index('ix_webhook_events_pending_next_id', ['nextAttemptAt', 'id'], { where: `state = 'pending'` })
@Index('ix_webhook_events_account_created', ['accountId', 'createdAt'])
@Index('ix_webhook_events_pending_endpoint', ['endpointId'], { where: `state = 'pending'` })
// Migration 1766700000000: the console's failed filter and "Redeliver failed" read only the few failed.
@Index('ix_webhook_events_failed', ['accountId', 'createdAt', 'id'], { where: `state = 'failed'` })
// The event log's pending filter, newest first (migration 1767520000000).
@Index('ix_webhook_events_pending_account', ['accountId', 'createdAt', 'id'], { where: `state = 'pending'` })
@Check('ck_webhook_events_state', `"state" IN ('pending', 'delivered', 'failed')`)
export class WebhookEvent {
  @PrimaryColumn('uuid', { primaryKeyConstraintName: 'pk_webhook_events' })
  id!: string;

  @Column('uuid')
  accountId!: string;

  // No foreign key here or on endpoint (migration 1764900000000): every completion of the account would
  // lock the same two rows. The task's key below carries the event's lifetime.
  @ManyToOne(() => Account, { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'account_id' })
  account?: Account;

  @Column('uuid', { nullable: true })
  endpointId!: string | null;

  @ManyToOne(() => WebhookEndpoint, { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'endpoint_id' })
  endpoint?: WebhookEndpoint;

  @Column('uuid', { nullable: true })
  taskId!: string | null;

  @ManyToOne(() => Task, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'task_id', foreignKeyConstraintName: 'fk_webhook_events_task' })
  task?: Task;

  @Column('text')
  type!: string;

  @Column('jsonb')
  payload!: unknown;

  @Column('text', { default: 'pending' })
  state!: WebhookEventState;

  @Column('integer', { default: 0 })
  attemptCount!: number;

  @Column('timestamptz', { nullable: true })
  nextAttemptAt!: Date | null;

  /** Written by nothing yet (from the first schema): the relay judges a lost job by next_attempt_at and its grace. */
  @Column('timestamptz', { nullable: true })
  enqueuedAt!: Date | null;

  @Column('timestamptz', { nullable: true })
  deliveredAt!: Date | null;

  @Column('text', { nullable: true })
  lastError!: string | null;

  /** Times redelivered from the console: an attempt records its outcome only if this has not moved since it read the event. */
  @Column('integer', { default: 0 })
  redeliveries!: number;

  /**
   * The exact bytes sent, fixed on the first attempt so retries and redeliveries are identical (and
   * keep the contract's field order, which jsonb would not).
   */
  @Column('text', { nullable: true })
  body!: string | null;

  @Column('timestamptz', { default: () => 'now()' })
  createdAt!: Date;
}
