import type { Provider } from '@nestjs/common';
import { Registry } from 'prom-client';

/** The app's one prom-client Registry: what GET /metrics renders, and where every instrument registers. */
export const METRICS_REGISTRY = Symbol('METRICS_REGISTRY');

/** One per app (not prom-client's global one), so two apps in one process, as in the tests, count apart. */
export const metricsRegistryProvider: Provider = { provide: METRICS_REGISTRY, useFactory: () => new Registry() };
