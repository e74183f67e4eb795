import { Inject, Injectable } from '@nestjs/common';
import { Counter, type Registry } from 'prom-client';
import { METRICS_REGISTRY } from './metrics-registry';

export type DeliveryOutcome = 'delivered' | 'retry' | 'failed' | 'busy';
export type ChallengeOutcome = 'confirmed' | 'retry' | 'failed' | 'busy';

interface Increment {
  inc(): void;
}

const DELIVERY_OUTCOMES: DeliveryOutcome[] = ['delivered', 'retry', 'failed', 'busy'];
const CHALLENGE_OUTCOMES: ChallengeOutcome[] = ['confirmed', 'retry', 'failed', 'busy'];

/**
 * `crowdbox_webhook_attempts_total{kind, outcome}`: how this process's webhook deliveries and address
 * challenges end, counted where the processors decide it (docs/running.md, "Metrics"). Each pair's
 * prom-client child is made once, so a delivery pays for one `.inc()`; every pair starts at 0 so a
 * rate() has a series from the first scrape.
 */
@Injectable()
export class WebhookMetrics {
  readonly delivery: Record<DeliveryOutcome, Increment>;
  readonly challenge: Record<ChallengeOutcome, Increment>;

  constructor(@Inject(METRICS_REGISTRY) registry: Registry) {
    const counter = new Counter({
      name: 'crowdbox_webhook_attempts_total',
      help:
        'Webhook jobs of this process by kind (delivery, challenge) and outcome: delivered or confirmed; retry (failed, another try scheduled); ' +
        'failed (given up); busy (receiver or account busy, back to the queue unsent)',
      labelNames: ['kind', 'outcome'],
      registers: [registry],
    });
    const children = <O extends string>(kind: string, outcomes: O[]) =>
      Object.fromEntries(
        outcomes.map((outcome) => {
          counter.inc({ kind, outcome }, 0);
          return [outcome, counter.labels({ kind, outcome })];
        }),
      ) as Record<O, Increment>;
    this.delivery = children('delivery', DELIVERY_OUTCOMES);
    this.challenge = children('challenge', CHALLENGE_OUTCOMES);
  }
}
