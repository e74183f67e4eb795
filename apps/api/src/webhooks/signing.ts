import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A new account signing secret: `whsec_` and 32 random bytes in standard base64 (Standard Webhooks). */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** How long a rotated-out secret keeps signing beside the new one. */
export const PREVIOUS_SECRET_HOURS = 24;

/** SQL (`account`: the accounts table's alias): when the secret a rotation replaced stops signing; null once it has. */
export const previousSecretExpiresSql = (account: string) =>
  `CASE WHEN ${account}.webhook_previous_secret_expires_at > now() THEN ${account}.webhook_previous_secret_expires_at END`;

/**
 * SQL for the secrets that sign an account's webhooks now, as text[]: the current one, then the one it
 * replaced while that is still within its overlap. `account` is the accounts table's alias.
 */
export const signingSecretsSql = (account: string) =>
  `array_remove(ARRAY[${account}.webhook_signing_secret,
     CASE WHEN ${previousSecretExpiresSql(account)} IS NOT NULL THEN ${account}.webhook_previous_signing_secret END], NULL)`;

/**
 * The Standard Webhooks headers for one delivery: `webhook-id`, `webhook-timestamp` (unix seconds),
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one signature per secret,
 * space-separated, as the convention allows during a rotation: a verifier holding either secret
 * accepts the request. Signed by the reference library so receivers using any Standard Webhooks
 * verifier agree with us.
 */
export function signatureHeaders(secrets: readonly string[], id: string, body: string, at = new Date()): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(id, new Date(timestamp * 1000), body)).join(' '),
  };
}
