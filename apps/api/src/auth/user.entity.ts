import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn, Unique } from 'typeorm';
import { Account } from './account.entity';

@Entity('users')
@Unique('uq_users_email', ['email'])
@Unique('uq_users_account', ['accountId'])
export class User {
  @PrimaryColumn('uuid', { primaryKeyConstraintName: 'pk_users' })
  id!: string;

  @Column('uuid')
  accountId!: string;

  @OneToOne(() => Account, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'fk_users_account' })
  account?: Account;

  /** Stored lower-cased and trimmed, so the unique constraint is case-insensitive. */
  @Column('text')
  email!: string;

  @Column('text')
  name!: string;

  /** `scrypt$N$r$p$salt$hash`, see password.util.ts. */
  @Column('text')
  passwordHash!: string;

  @Column('timestamptz', { default: () => 'now()' })
  createdAt!: Date;

  /**
   * When the user deleted the account (migration 1766900000000); null while in use. Written only by the
   * deletion (account-deletion.service.ts), which also rewrites the email, names and password hash.
   */
  @Column({ type: 'timestamptz', nullable: true, insert: false, update: false })
  deletedAt!: Date | null;
}
