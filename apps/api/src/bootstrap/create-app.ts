import { LIMITS } from '@crowdbox/contracts';
import fastifyCookie from '@fastify/cookie';
import { NestFactory } from '@nestjs/core';
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { getDataSourceToken } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { levels, type DestinationStream } from 'pino';
import type { DataSource } from 'typeorm';
import { AppModule } from '../app.module';
import { registerApiKeyHeaderCheck } from '../auth/api-key-header-check';
import { ErrorFilter } from '../common/errors/error.filter';
import { sendError } from '../common/errors/error-response';
import { registerBrowserOriginCheck } from '../common/http/browser-origin';
import { registerJsonBodyParser } from '../common/http/json-body.parser';
import { registerResponseHeaders } from '../common/http/response-headers';
import { RouteTable } from '../common/http/route-table';
import { ZodValidationPipe } from '../common/validation/zod-validation.pipe';
import type { AppConfig } from '../config/config.schema';
import { runMigrations } from '../database/run-migrations';
import { HttpMetrics } from '../metrics/http-metrics';
import { WebApp } from '../web/web-app';
import { errWithoutValues } from './error-log-serializer';
import { PinoNestLogger } from './pino-nest.logger';
import { registerClosingAnswer } from './closing-requests';
import { setupOpenApi } from './openapi';

const REQUEST_ID = /^[\w.:-]{1,100}$/;

export interface CreateAppOptions {
  /** Where the JSON log lines go instead of stdout; tests read them. */
  logStream?: DestinationStream;
}

/**
 * Builds the whole server: Fastify with the JSON parser, the error handler and the request log, then
 * Nest with the global pipe and filter. main.ts and every API test use this same function.
 */
export async function createApp(config: AppConfig, options: CreateAppOptions = {}): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    // No Nest middleware here (guards, pipes and Fastify hooks do that work): middie's per-request hook is
    // pure cost.
    skipMiddie: true,
    logger: {
      level: config.LOG_LEVEL,
      base: { service: 'crowdbox-api', role: config.role },
      // A failed statement's values (emails, password hashes) never reach the log (error-log-serializer.ts).
      serializers: { err: errWithoutValues },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    // One line per request, written in onResponse below, instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    // Whose X-Forwarded-For/-Host/-Proto to believe: TRUST_PROXY, by default a proxy on loopback only.
    trustProxy: config.TRUST_PROXY,
    // A request arriving while the server closes gets the contract's 503 (registerClosingAnswer), not
    // the body Fastify would write past every hook.
    return503OnClosing: false,
    // Every route gets its own limit (registerJsonBodyParser); this is for anything else.
    bodyLimit: LIMITS.bodyBytes,
    // Errors Fastify meets before any route runs (a path that is not valid percent-encoding, a path
    // parameter past maxParamLength) get the contract's error shape too, instead of Fastify's own.
    // (No route, so no onSend hook: the request id is set here.)
    frameworkErrors: (error: Error, request: FastifyRequest, reply: FastifyReply) => sendError(reply.header('x-request-id', request.id), request, error),
    // A path parameter longer than this is answered 414 before routing; below it, a malformed id reaches
    // its route and gets that route's answer (e.g. 422 "worktask not found"), as a 100-character one did.
    routerOptions: { maxParamLength: 1000 },
    requestIdHeader: false,
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
  });
  const fastify = adapter.getInstance();
  const routes = new RouteTable();
  routes.watch(fastify);
  registerJsonBodyParser(fastify);
  registerBrowserOriginCheck(fastify);
  registerApiKeyHeaderCheck(fastify);
  registerResponseHeaders(fastify);
  registerClosingAnswer(fastify);

  const app = await NestFactory.create<NestFastifyApplication>(AppModule.register(config), adapter, {
    bodyParser: false,
    logger: new PinoNestLogger(fastify.log),
    abortOnError: false,
  });
  // One onResponse hook, added before Nest registers its routes (app.init below): the request's time for
  // /metrics (metrics/http-metrics.ts), and its log line.
  const httpMetrics = app.get(HttpMetrics);
  const logRequests = (levels.values[config.LOG_LEVEL] ?? Infinity) <= levels.values.info;
  fastify.addHook('onResponse', (request, reply, done) => {
    httpMetrics.observe(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime);
    if (logRequests) {
      request.log.info(
        { method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
        'request',
      );
    }
    done();
  });
  // hook: false keeps cookie parsing off every request; auth/session-cookie.ts reads the one cookie we use.
  await app.register(fastifyCookie, { hook: false });
  // The built web app, if any: /assets, and index.html for page loads no route matched (web/web-app.ts).
  const web = WebApp.load(config.WEB_DIST_DIR);
  await web?.registerAssets(app);
  app.useGlobalPipes(new ZodValidationPipe());
  app.useGlobalFilters(new ErrorFilter(routes, web));
  app.enableShutdownHooks();
  setupOpenApi(app);

  if (config.MIGRATE_ON_BOOT) {
    await runMigrations(app.get<DataSource>(getDataSourceToken()), {
      lockTimeoutMs: config.DATABASE_MIGRATION_LOCK_TIMEOUT_MS,
      attempts: config.DATABASE_MIGRATION_ATTEMPTS,
    });
  }
  await app.init();
  await fastify.ready();
  return app;
}
