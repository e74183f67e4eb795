import { Controller, Get, Logger } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ref } from '../bootstrap/openapi-schemas';
import { ApiData, ApiErrors, TAGS } from '../common/http/api-docs';
import { ApiException } from '../common/errors/api.exception';
import { Readiness } from './readiness';
import { ShutdownDrain } from './shutdown-drain';

/**
 * Liveness (the process answers) and readiness (PostgreSQL answers; Redis is reported, not required).
 * An HTTP process serves every request without Redis, degraded (docs/running.md, "Redis"): the rate
 * limits fall back to each process's memory, and the jobs a request would add are left to the sweeper
 * and the outbox relay. Were readiness to require Redis, a Redis outage would take every HTTP process
 * out of its load balancer at once and turn a degraded service into none. (A jobs process, which cannot
 * work without Redis, answers its own /readyz on JOBS_HTTP_PORT: bootstrap/jobs-listener.ts.)
 */
@ApiTags(TAGS.health)
@Controller()
export class HealthController {
  private readonly logger = new Logger(HealthController.name);

  constructor(
    private readonly readiness: Readiness,
    private readonly drain: ShutdownDrain,
  ) {}

  @Get('healthz')
  @ApiOperation({ summary: 'Liveness', description: 'The process answers. No credentials.' })
  @ApiData(200, ref('Health'))
  live() {
    return { data: { ok: true } };
  }

  /**
   * 503 unless PostgreSQL answers within READYZ_TIMEOUT_MS; Redis's state is in the answer either way
   * (`ok`, `unavailable` or the timeout), for a dashboard or an alert (readiness.ts).
   */
  @Get('readyz')
  @ApiOperation({ summary: 'Readiness', description: 'PostgreSQL answers; Redis is reported, not required (without it the API serves, degraded). No credentials.' })
  @ApiData(200, ref('Readiness'))
  @ApiErrors([503], { 503: 'Not ready: field `postgres` says why, or `root` that the process is shutting down (SHUTDOWN_DRAIN_MS).' })
  async ready() {
    // Shutting down: out of the load balancer first, while requests are still served (shutdown-drain.ts).
    if (this.drain.draining) throw new ApiException(503, [{ field: 'root', detail: 'shutting down' }]);
    const { postgres, redis } = await this.readiness.check();
    // The probe answers anyone on the public port, so a failure's own message (which can name internal
    // hosts, ports and users) goes to the log, and the answer only says which one failed.
    if (postgres !== 'ok') {
      this.logger.warn(`not ready: postgres ${postgres}; redis ${redis}`);
      throw new ApiException(503, [{ field: 'postgres', detail: this.readiness.publicDetail(postgres) }]);
    }
    if (redis !== 'ok') this.logger.warn(`ready without redis (degraded): ${redis}`);
    return { data: { ok: true, postgres, redis: redis === 'ok' ? redis : this.readiness.publicDetail(redis) } };
  }
}
