import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from 'typeorm';
import { User } from './user.entity';

/** A signed-in browser or client; the token itself is never stored, only its SHA-256. */
@Entity('sessions')
@Unique('uq_sessions_token_hash', ['tokenHash'])
@Index('ix_sessions_user', ['userId'])
@Index('ix_sessions_expires_at', ['expiresAt'])
export class Session {
  @PrimaryColumn('uuid', { primaryKeyConstraintName: 'pk_sessions' })
  id!: string;

  @Column('uuid')
  userId!: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_sessions_user' })
  user?: User;

  @Column('text')
  tokenHash!: string;

  @Column('timestamptz', { default: () => 'now()' })
  createdAt!: Date;

  @Column('timestamptz')
  expiresAt!: Date;

  /** The User-Agent at sign-in, cut to MAX_USER_AGENT characters; null for sessions made before migration 1767200000000. */
  @Column('text', { nullable: true })
  userAgent!: string | null;

  /** The client's address at sign-in, as `@Ip()` reads it (TRUST_PROXY). */
  @Column('text', { nullable: true })
  clientAddress!: string | null;

  /** Written at most once a minute per session and process (LastUseRecorder). */
  @Column('timestamptz', { nullable: true })
  lastUsedAt!: Date | null;
}
