import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A requester can rotate the account's webhook signing secret (POST /api/console/webhooks/signing-secret/rotate).
 * The replaced secret keeps signing beside the new one until webhook_previous_secret_expires_at, so a
 * receiver can switch its verifier without rejecting a delivery in between (docs/decisions.md,
 * "The signing secret rotates with a day of overlap").
 */
export class SigningSecretRotation1765000000000 implements MigrationInterface {
  name = 'SigningSecretRotation1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE accounts ADD COLUMN webhook_previous_signing_secret text, ADD COLUMN webhook_previous_secret_expires_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE accounts DROP COLUMN webhook_previous_signing_secret, DROP COLUMN webhook_previous_secret_expires_at`);
  }
}
