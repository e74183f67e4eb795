import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import Fastify, { type FastifyInstance } from 'fastify';
import { ApiException } from '../common/errors/api.exception';
import { sendError } from '../common/errors/error-response';
import { registerResponseHeaders } from '../common/http/response-headers';
import type { AppConfig } from '../config/config.schema';
import { Readiness } from '../health/readiness';
import { assertMetricsAccess } from '../metrics/metrics-access';
import { MetricsService } from '../metrics/metrics.service';
import { SHUTDOWN_SIGNALS } from './shutdown-deadline';

/**
 * A `--role=jobs` process's own small listener on JOBS_HTTP_PORT (docs/running.md, "Roles"): a jobs
 * process serves no API, yet an orchestrator needs to know it is alive and able to work, and its
 * webhook counters and pool figures are its own and can only be read from it. Three routes, each
 * calling what the HTTP port calls, through the app's container:
 * - GET /healthz: the event loop answers (a process stuck in a loop or a long synchronous stretch does not);
 * - GET /readyz: PostgreSQL and Redis both answer within READYZ_TIMEOUT_MS (health/readiness.ts). Unlike
 *   an HTTP process, which serves requests without Redis, a jobs process does nothing without it;
 * - GET /metrics: the same METRICS_TOKEN rule and the same figures as the HTTP port's.
 * Anything else is a 404. It stops listening as soon as SIGTERM or SIGINT comes, while Nest's shutdown
 * (which gives Redis up to REDIS_CLOSE_GRACE_MS after the workers' last jobs) closes the workers.
 */
export async function listenForJobs(app: NestFastifyApplication, config: AppConfig, port: number): Promise<FastifyInstance> {
  const metrics = app.get(MetricsService);
  const readiness = app.get(Readiness);
  const logger = new Logger('JobsListener');

  const server = Fastify({
    loggerInstance: app.getHttpAdapter().getInstance().log.child({ listener: 'jobs' }),
    // A probe every few seconds is not worth a log line each; failures are logged below and by sendError.
    disableRequestLogging: true,
  });
  registerResponseHeaders(server);
  server.setErrorHandler((error, request, reply) => sendError(reply, request, error));
  server.setNotFoundHandler((request, reply) => sendError(reply, request, ApiException.notFound(`no route ${request.method} ${request.url.split('?')[0]}`)));

  server.get('/healthz', async () => ({ data: { ok: true } }));
  server.get('/readyz', async () => {
    const checks = await readiness.check();
    const failed = (['postgres', 'redis'] as const).filter((source) => checks[source] !== 'ok');
    if (failed.length > 0) {
      logger.warn(`not ready: postgres ${checks.postgres}; redis ${checks.redis}`);
      throw new ApiException(
        503,
        failed.map((field) => ({ field, detail: readiness.publicDetail(checks[field]) })),
      );
    }
    return { data: { ok: true, postgres: checks.postgres, redis: checks.redis } };
  });
  server.get('/metrics', async (request, reply) => {
    assertMetricsAccess(config.METRICS_TOKEN, request.headers.authorization);
    const { body, contentType } = await metrics.scrape();
    return reply.type(contentType).send(body);
  });

  await server.listen({ host: config.HOST, port });
  for (const signal of SHUTDOWN_SIGNALS) {
    process.once(signal, () => {
      server.close().catch((error: unknown) => logger.warn(`closing the jobs listener: ${String(error)}`));
    });
  }
  return server;
}
