import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { WebhookEvent } from './webhook-event.entity';

/** One HTTP attempt to deliver an event: what was sent when, and what came back. */
@Entity('webhook_attempts')
@Index('ix_webhook_attempts_event', ['eventId', 'attemptedAt'])
export class WebhookAttempt {
  @PrimaryColumn('uuid', { primaryKeyConstraintName: 'pk_webhook_attempts' })
  id!: string;

  @Column('uuid')
  eventId!: string;

  @ManyToOne(() => WebhookEvent, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id', foreignKeyConstraintName: 'fk_webhook_attempts_event' })
  event?: WebhookEvent;

  @Column('timestamptz', { default: () => 'now()' })
  attemptedAt!: Date;

  @Column('integer', { nullable: true })
  statusCode!: number | null;

  @Column('integer')
  durationMs!: number;

  @Column('text', { nullable: true })
  error!: string | null;

  /** The first 1 KiB of the reply. */
  @Column('text', { nullable: true })
  responseExcerpt!: string | null;
}
