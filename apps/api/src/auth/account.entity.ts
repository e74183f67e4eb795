import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Who owns projects, keys and money; every user has exactly one. */
@Entity('accounts')
export class Account {
  @PrimaryColumn('uuid', { primaryKeyConstraintName: 'pk_accounts' })
  id!: string;

  @Column('text')
  name!: string;

  /** `whsec_<base64>`: signs this account's webhooks (Standard Webhooks). */
  @Column('text')
  webhookSigningSecret!: string;

  /** The secret a rotation replaced; it signs beside the new one until `webhookPreviousSecretExpiresAt`. */
  @Column('text', { nullable: true })
  webhookPreviousSigningSecret!: string | null;

  @Column('timestamptz', { nullable: true })
  webhookPreviousSecretExpiresAt!: Date | null;

  @Column('timestamptz', { default: () => 'now()' })
  createdAt!: Date;
}
