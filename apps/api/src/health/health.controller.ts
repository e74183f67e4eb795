import { Controller, Get, Inject } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { ApiException } from '../common/errors/api.exception';
import { REDIS } from '../redis/redis.module';

/** Liveness (the process answers) and readiness (PostgreSQL and Redis answer too). */
@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  @Get('healthz')
  live() {
    return { data: { ok: true } };
  }

  @Get('readyz')
  async ready() {
    const [postgres, redis] = await Promise.all([
      this.db.query('SELECT 1').then(() => 'ok', (e: Error) => e.message),
      this.redis.ping().then(() => 'ok', (e: Error) => e.message),
    ]);
    if (postgres !== 'ok' || redis !== 'ok') {
      throw new ApiException(503, [
        ...(postgres === 'ok' ? [] : [{ field: 'postgres', detail: postgres }]),
        ...(redis === 'ok' ? [] : [{ field: 'redis', detail: redis }]),
      ]);
    }
    return { data: { ok: true, postgres, redis } };
  }
}
