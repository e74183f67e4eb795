/** BullMQ queues and their job payloads (DESIGN.md §3): one place for names, read by producers and workers. */
export const QUEUES = {
  checkoutExpiry: 'checkout-expiry',
  webhookDelivery: 'webhook-delivery',
  webhookChallenge: 'webhook-challenge',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

/** checkout-expiry: expire one lease at its expires_at (jobId `expire-<checkout id>`). */
export interface CheckoutExpiryJob {
  checkoutId: string;
}

/** webhook-delivery: deliver one outbox event (jobId = the event id). */
export interface WebhookDeliveryJob {
  eventId: string;
}

/** webhook-challenge: confirm one callback address (jobId `challenge-<endpoint id>`). */
export interface WebhookChallengeJob {
  endpointId: string;
}
