import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { getDataSourceToken } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createApp } from '../src/bootstrap/create-app';
import { loadConfig } from '../src/config/load-config';
import { createTestDatabase, databaseUrl, dropTestDatabase } from './test-database';

export interface TestApp {
  app: NestFastifyApplication;
  db: DataSource;
  request: (options: RequestOptions) => Promise<TestResponse>;
  close: () => Promise<void>;
}

export interface RequestOptions {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE' | 'HEAD' | 'OPTIONS';
  url: string;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string or a Buffer is sent as is. */
  body?: unknown;
  /** The peer's address as the server sees it (the socket's); 127.0.0.1 unless given. */
  remoteAddress?: string;
}

export interface TestResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/**
 * Boots the real server (the same createApp as production) on a private database and Redis prefix,
 * so test files run in parallel without seeing each other.
 */
export interface TestAppOptions {
  /** Boot on this existing test database instead of a new one (a "restart"); it is then not dropped on close. */
  database?: string;
  role?: 'all' | 'http' | 'jobs';
  /** Receives the server's JSON log lines (give LOG_LEVEL too: tests log nothing unless TEST_LOG_LEVEL says). */
  logStream?: { write(line: string): void };
}

export async function startTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp & { database: string }> {
  const dbName = options.database ?? (await createTestDatabase());
  const config = loadConfig(
    {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      DATABASE_URL: databaseUrl(dbName),
      DATABASE_POOL_SIZE: '10',
      MIGRATE_ON_BOOT: 'false',
      REDIS_PREFIX: `cbtest:${randomBytes(4).toString('hex')}`,
      RATE_LIMIT_REQUESTS: '100000',
      // Password hashes at a fifth of production's work: tests sign up hundreds of users.
      PASSWORD_SCRYPT_P: '1',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      // The background consensus refresh would rewrite stored consensus at moments a test does not
      // choose; its own spec turns it on or runs its passes.
      CONSENSUS_REFRESH_INTERVAL_MS: '0',
      // Production's 500 ms is for a Redis that stopped answering (stuck-redis.e2e tests it with its own);
      // here the suites share two cores with PostgreSQL, Redis and Chromium, where a healthy command
      // queued behind others took longer in CI runs, failing tests that read Redis themselves.
      REDIS_COMMAND_TIMEOUT_MS: '5000',
      ...env,
    },
    ['node', 'test', `--role=${options.role ?? 'all'}`],
  );
  const app = await createApp(config, { logStream: options.logStream });
  const db = app.get<DataSource>(getDataSourceToken());
  const request = async (options: RequestOptions): Promise<TestResponse> => {
    const headers = { ...(options.headers ?? {}) };
    let payload: string | Buffer | undefined;
    if (typeof options.body === 'string' || Buffer.isBuffer(options.body)) payload = options.body;
    else if (options.body !== undefined) {
      payload = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await app.inject({ method: options.method, url: options.url, headers, payload, remoteAddress: options.remoteAddress });
    let body: unknown;
    try {
      body = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      body = undefined;
    }
    return { status: res.statusCode, headers: res.headers, text: res.body, body };
  };
  return {
    app,
    db,
    request,
    database: dbName,
    close: async () => {
      await app.close();
      if (!options.database) await dropTestDatabase(dbName);
    },
  };
}
