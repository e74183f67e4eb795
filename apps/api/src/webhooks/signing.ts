import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A new account signing secret: `whsec_` and 32 random bytes in standard base64 (Standard Webhooks). */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * The Standard Webhooks headers for one delivery: `webhook-id`, `webhook-timestamp` (unix seconds),
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`. Signed by the reference
 * library so receivers using any Standard Webhooks verifier agree with us.
 */
export function signatureHeaders(secret: string, id: string, body: string, at = new Date()): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': new Webhook(secret).sign(id, new Date(timestamp * 1000), body),
  };
}
