import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { within } from '../common/within';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { REDIS } from '../redis/redis.module';
import type { RedisClient } from '../redis/redis-client';

/** What one probe found: each dependency's 'ok', its error's message, or its timeout's. */
export interface ReadinessChecks {
  postgres: string;
  redis: string;
}

/**
 * The checks behind GET /readyz: on the HTTP port (health.controller.ts, which needs PostgreSQL only) and
 * on a jobs process's JOBS_HTTP_PORT (bootstrap/jobs-listener.ts, which needs Redis too). A probe must
 * not wait as long as a request would: with every pooled connection busy, or PostgreSQL unreachable,
 * `SELECT 1` waits for a connection up to DATABASE_CONNECT_TIMEOUT_MS, and a load balancer's check gives
 * up before that and learns nothing. So each check gets READYZ_TIMEOUT_MS.
 */
@Injectable()
export class Readiness {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(REDIS) private readonly redis: RedisClient,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** PostgreSQL's `SELECT 1` and Redis's PING, side by side. */
  async check(): Promise<ReadinessChecks> {
    const timeoutMs = this.config.READYZ_TIMEOUT_MS;
    const [postgres, redis] = await Promise.all([answer(this.db.query('SELECT 1'), timeoutMs), answer(this.redis.ping(), timeoutMs)]);
    return { postgres, redis };
  }

  /**
   * What a probe's answer says of a failed check: its timeout as such, anything else only as
   * "unavailable". A probe answers anyone who can reach its port, and an error's own message can name
   * internal hosts, ports and users: that goes to the log.
   */
  publicDetail(outcome: string): string {
    return outcome === noAnswer(this.config.READYZ_TIMEOUT_MS) ? outcome : 'unavailable';
  }
}

const noAnswer = (timeoutMs: number) => `no answer within ${timeoutMs} ms`;

/** 'ok', the error's message, or a timeout's; the check itself is left to finish or fail on its own. */
function answer(check: Promise<unknown>, timeoutMs: number): Promise<string> {
  const settled = check.then(
    () => 'ok',
    (error: Error) => error.message,
  );
  return within(settled, timeoutMs, noAnswer(timeoutMs));
}
