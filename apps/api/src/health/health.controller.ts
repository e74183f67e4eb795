import { Controller, Get, Inject, Logger } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { RedisClient } from '../redis/redis-client';
import { DataSource } from 'typeorm';
import { ApiException } from '../common/errors/api.exception';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { REDIS } from '../redis/redis.module';

/**
 * Liveness (the process answers) and readiness (PostgreSQL answers; Redis is reported, not required).
 * An HTTP process serves every request without Redis, degraded (docs/running.md, "Redis"): the rate
 * limits fall back to each process's memory, and the jobs a request would add are left to the sweeper
 * and the outbox relay. Were readiness to require Redis, a Redis outage would take every HTTP process
 * out of its load balancer at once and turn a degraded service into none.
 */
@ApiExcludeController()
@Controller()
export class HealthController {
  private readonly logger = new Logger(HealthController.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(REDIS) private readonly redis: RedisClient,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('healthz')
  live() {
    return { data: { ok: true } };
  }

  /**
   * 503 unless PostgreSQL answers within READYZ_TIMEOUT_MS; Redis's state is in the answer either way
   * (`ok`, `unavailable` or the timeout), for a dashboard or an alert. A probe must not wait as long as a request would:
   * with every pooled connection busy, or PostgreSQL unreachable, `SELECT 1` waits for a connection up
   * to DATABASE_CONNECT_TIMEOUT_MS, and a load balancer's check gives up before that and learns nothing.
   */
  @Get('readyz')
  async ready() {
    const timeoutMs = this.config.READYZ_TIMEOUT_MS;
    const [postgres, redis] = await Promise.all([
      answer(this.db.query('SELECT 1'), timeoutMs),
      answer(this.redis.ping(), timeoutMs),
    ]);
    // The probe answers anyone on the public port, so a failure's own message (which can name internal
    // hosts, ports and users) goes to the log, and the answer only says which one failed.
    if (postgres !== 'ok') {
      this.logger.warn(`not ready: postgres ${postgres}; redis ${redis}`);
      throw new ApiException(503, [{ field: 'postgres', detail: publicDetail(postgres, timeoutMs) }]);
    }
    if (redis !== 'ok') this.logger.warn(`ready without redis (degraded): ${redis}`);
    return { data: { ok: true, postgres, redis: redis === 'ok' ? redis : publicDetail(redis, timeoutMs) } };
  }
}

/** What /readyz says of a failed check: its timeout as such, anything else only as "unavailable". */
function publicDetail(outcome: string, timeoutMs: number): string {
  return outcome === noAnswer(timeoutMs) ? outcome : 'unavailable';
}

const noAnswer = (timeoutMs: number) => `no answer within ${timeoutMs} ms`;

/** 'ok', the error's message, or a timeout's; the check itself is left to finish or fail on its own. */
function answer(check: Promise<unknown>, timeoutMs: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(noAnswer(timeoutMs)), timeoutMs);
  });
  const settled = check.then(
    () => 'ok',
    (error: Error) => error.message,
  );
  return Promise.race([settled, late]).finally(() => clearTimeout(timer));
}
