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

  @Column('timestamptz', { default: () => 'now()' })
  createdAt!: Date;
}
