import { Inject, Injectable } from '@nestjs/common';
import { Histogram, type Registry } from 'prom-client';
import { METRICS_REGISTRY } from './metrics-registry';

/** The route label of a request no route matched (a 404, a 405, a page load the web app answered). */
export const UNMATCHED_ROUTE = 'unmatched';

/** Status classes by the status's first digit: index 2 is '2xx'. */
const STATUS_CLASSES = ['1xx', '1xx', '2xx', '3xx', '4xx', '5xx'] as const;

/** 5 ms to 10 s: a cached read answers in a few ms, a page of tasks in tens, anything past 10 s is stuck. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface Observer {
  observe(value: number): void;
}

/**
 * `crowdbox_http_request_duration_seconds{method, route, status_class}`, observed once per answered
 * request by create-app.ts's onResponse hook. The route label is the pattern a request matched
 * (`/api/v1/tasks/:uuid`), never its URL, so the series are bounded by the routes we declare.
 *
 * This runs on every request (~3,000/s on two cores in the webhook benchmark), so each label set's
 * prom-client child is made once and kept, by route, method and status class: a request then builds no
 * label object and looks up nothing prom-client would hash, leaving only prom-client's own work.
 */
@Injectable()
export class HttpMetrics {
  private readonly histogram: Histogram<'method' | 'route' | 'status_class'>;
  /** route -> method -> children indexed by the status's first digit. */
  private readonly children = new Map<string, Map<string, Array<Observer | undefined>>>();

  constructor(@Inject(METRICS_REGISTRY) registry: Registry) {
    this.histogram = new Histogram({
      name: 'crowdbox_http_request_duration_seconds',
      help: 'Time from a request to its answer in this process, by method, route pattern (unmatched: no route) and status class',
      labelNames: ['method', 'route', 'status_class'],
      buckets: BUCKETS,
      registers: [registry],
    });
  }

  /** `route` is the matched pattern (request.routeOptions.url), undefined when none matched; `ms` the time taken. */
  observe(method: string, route: string | undefined, status: number, ms: number): void {
    const pattern = route ?? UNMATCHED_ROUTE;
    let byMethod = this.children.get(pattern);
    if (byMethod === undefined) {
      byMethod = new Map();
      this.children.set(pattern, byMethod);
    }
    let byClass = byMethod.get(method);
    if (byClass === undefined) {
      byClass = [];
      byMethod.set(method, byClass);
    }
    const digit = Math.min(5, Math.max(1, (status / 100) | 0));
    let child = byClass[digit];
    if (child === undefined) {
      child = this.histogram.labels({ method, route: pattern, status_class: STATUS_CLASSES[digit] });
      byClass[digit] = child;
    }
    child.observe(ms / 1000);
  }
}
