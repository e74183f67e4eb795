import { type ChildProcess } from 'node:child_process';
import { eventually } from '../../../test/eventually';
import { freePort } from '../../../test/free-port';
import { httpStatus as status, spawnMain } from '../../../test/main-process';
import { createTestDatabase, databaseUrl, dropTestDatabase } from '../../../test/test-database';
import { within } from '../../common/within';

const TOKEN = 'metrics-token-for-tests';
const SHUTDOWN_TIMEOUT_MS = 3_000;

/** GET on a new connection: status, body as JSON when it is JSON, and text. */
async function get(port: number, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { connection: 'close', ...headers } });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body };
}

/**
 * JOBS_HTTP_PORT (docs/running.md, "Roles"): the real main.ts with `--role=jobs`, run from its sources,
 * answers /healthz, /readyz (PostgreSQL and Redis) and /metrics there, nothing else, and stops
 * listening when SIGTERM comes.
 */
describe('--role=jobs with JOBS_HTTP_PORT', () => {
  let database: string;
  const running: ChildProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await dropTestDatabase(database);
  });

  const start = (env: Record<string, string>) => {
    const { child, output } = spawnMain('jobs', {
      LOG_LEVEL: 'warn',
      DATABASE_URL: databaseUrl(database),
      DATABASE_POOL_SIZE: '2',
      MIGRATE_ON_BOOT: 'false',
      READYZ_TIMEOUT_MS: '500',
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      ...env,
    });
    running.push(child);
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    return { child, output, exited };
  };

  it('answers /healthz, /readyz and /metrics (with METRICS_TOKEN), nothing else, and not on PORT; ends on SIGTERM', async () => {
    const [port, jobsPort] = [await freePort(), await freePort()];
    const jobs = start({ PORT: String(port), JOBS_HTTP_PORT: String(jobsPort), METRICS_TOKEN: TOKEN });
    expect(await eventually(async () => (await status(jobsPort, '/healthz')) === 200, 60_000, 100)).toBe(true);

    expect((await get(jobsPort, '/healthz')).body).toEqual({ data: { ok: true } });
    // The shared Redis client may still be connecting right after the boot.
    const ready = await eventually(async () => {
      const res = await get(jobsPort, '/readyz');
      return res.status === 200 && res;
    }, 5_000);
    expect(ready && ready.body).toEqual({ data: { ok: true, postgres: 'ok', redis: 'ok' } });

    const refused = await get(jobsPort, '/metrics', { authorization: 'Bearer wrong-token-of-some-length' });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ errors: [{ field: 'authorization', detail: 'send Authorization: Bearer <METRICS_TOKEN>' }] });
    const scraped = await get(jobsPort, '/metrics', { authorization: `Bearer ${TOKEN}` });
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    // This process's own figures: its webhook counters, its pool, its Redis client; and the backlog.
    expect(scraped.text).toMatch(/^crowdbox_webhook_attempts_total\{kind="delivery",outcome="delivered"\} 0$/m);
    expect(scraped.text).toMatch(/^crowdbox_db_pool_connections\{state="total"\} [12]$/m);
    expect(scraped.text).toMatch(/^crowdbox_redis_up 1$/m);
    expect(scraped.text).toMatch(/^crowdbox_webhook_events_pending\{waiting_for="attempt"\} 0$/m);

    // Not the API: a jobs process serves none of it, here or on PORT.
    expect(await get(jobsPort, '/api/v1/ping')).toMatchObject({ status: 404, body: { errors: [{ field: 'root', detail: 'no route GET /api/v1/ping' }] } });
    expect(await status(port, '/healthz')).toBeUndefined();

    jobs.child.kill('SIGTERM');
    expect(await within(jobs.exited, SHUTDOWN_TIMEOUT_MS + 5_000, undefined)).toEqual({ code: null, signal: 'SIGTERM' });
    expect(await status(jobsPort, '/healthz')).toBeUndefined();
  }, 90_000);

  it('is not ready without Redis, still alive, serves no /metrics without METRICS_TOKEN, and stops listening as soon as SIGTERM comes', async () => {
    const jobsPort = await freePort();
    const jobs = start({ JOBS_HTTP_PORT: String(jobsPort), REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
    expect(await eventually(async () => (await status(jobsPort, '/healthz')) === 200, 60_000, 100)).toBe(true);

    const ready = await get(jobsPort, '/readyz');
    expect(ready.status).toBe(503);
    // Which one failed, not its error (which names the host and port).
    expect(ready.body).toEqual({ errors: [{ field: 'redis', detail: 'unavailable' }] });
    // Logged (the error with it); the process's output reaches us through a pipe, a moment later.
    expect(await eventually(() => jobs.output.text.includes('not ready: postgres ok; redis '), 5_000)).toBe(true);
    expect((await get(jobsPort, '/metrics', { authorization: `Bearer ${TOKEN}` })).status).toBe(404);

    // Closing the workers gives Redis REDIS_CLOSE_GRACE_MS (queues/logged-bull-classes.ts); the listener
    // does not wait for them.
    jobs.child.kill('SIGTERM');
    expect(await eventually(async () => (await status(jobsPort, '/healthz')) === undefined, 1_000, 50)).toBe(true);
    expect(jobs.child.exitCode).toBeNull();
    expect(await within(jobs.exited, SHUTDOWN_TIMEOUT_MS + 5_000, undefined)).toEqual({ code: null, signal: 'SIGTERM' });
  }, 90_000);
});
