import { type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { eventually } from '../../../test/eventually';
import { freePort } from '../../../test/free-port';
import { childrenOf, httpStatus as status, spawnMain } from '../../../test/main-process';
import { createTestDatabase, databaseUrl, dropTestDatabase } from '../../../test/test-database';
import { within } from '../../common/within';
import { REDIS_CLOSE_GRACE_MS } from '../../queues/logged-bull-classes';

const SHUTDOWN_TIMEOUT_MS = 3_000;

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  ms: number;
}

/**
 * SHUTDOWN_TIMEOUT_MS (docs/running.md, "Stopping"): the real main.ts, run from its sources against a
 * Redis that is not there (a closed port). Closing BullMQ's workers then takes REDIS_CLOSE_GRACE_MS
 * (queues/logged-bull-classes.ts); a deadline shorter than that ends the process anyway, and the
 * HTTP_PROCESSES supervisor bounds its processes too.
 */
describe('shutdown deadline', () => {
  let database: string;
  let redisUrl: string;
  const running: ChildProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    redisUrl = `redis://127.0.0.1:${await freePort()}`;
  });
  afterAll(async () => {
    for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await dropTestDatabase(database);
  });

  const start = (role: string, port: number, env: Record<string, string> = {}) => {
    const { child, output } = spawnMain(role, {
      LOG_LEVEL: 'info',
      DATABASE_URL: databaseUrl(database),
      DATABASE_POOL_SIZE: '2',
      MIGRATE_ON_BOOT: 'false',
      REDIS_URL: redisUrl,
      PORT: String(port),
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      ...env,
    });
    running.push(child);
    const exited = new Promise<Omit<Exit, 'ms'>>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    /** SIGTERM, then how it ended and how long it took, or undefined when it is still running after `waitMs`. */
    const terminate = async (waitMs: number): Promise<Exit | undefined> => {
      const from = Date.now();
      child.kill('SIGTERM');
      const end = await within(exited, waitMs, undefined);
      return end && { ...end, ms: Date.now() - from };
    };
    return { child, output, terminate };
  };

  /** The JSON log lines of `text` whose msg contains `part`. */
  const logged = (text: string, part: string) =>
    text
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string })
      .filter((entry) => entry.msg.includes(part));

  it('--role=all: ends by the signal when Redis is away, its workers closed within REDIS_CLOSE_GRACE_MS', async () => {
    const port = await freePort();
    const server = start('all', port, { SHUTDOWN_TIMEOUT_MS: '20000' });
    expect(await eventually(async () => (await status(port, '/healthz')) === 200, 60_000, 100)).toBe(true);
    // Redis is away: ready (PostgreSQL answers), and says so.
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`, { headers: { connection: 'close' } });
    expect(await ready.json()).toEqual({ data: { ok: true, postgres: 'ok', redis: 'unavailable' } });

    const end = await server.terminate(20_000);
    expect(end).toMatchObject({ code: null, signal: 'SIGTERM' });
    expect(end?.ms).toBeLessThan(REDIS_CLOSE_GRACE_MS + 3_000);
  }, 90_000);

  it('--role=all: exits with code 1 at SHUTDOWN_TIMEOUT_MS when the shutdown takes longer', async () => {
    const port = await freePort();
    // Shorter than the workers' close needs with Redis away (REDIS_CLOSE_GRACE_MS).
    const deadline = REDIS_CLOSE_GRACE_MS / 2;
    const server = start('all', port, { SHUTDOWN_TIMEOUT_MS: String(deadline) });
    expect(await eventually(async () => (await status(port, '/healthz')) === 200, 60_000, 100)).toBe(true);

    const end = await server.terminate(deadline + 10_000);
    expect(end).toMatchObject({ code: 1, signal: null });
    expect(end?.ms).toBeGreaterThanOrEqual(deadline - 100);
    expect(end?.ms).toBeLessThan(deadline + 3_000);
    // Said in the JSON log, at error level.
    const lines = logged(server.output.text, `shutdown did not finish within SHUTDOWN_TIMEOUT_MS (${deadline} ms) of SIGTERM`);
    expect(lines).toEqual([expect.objectContaining({ level: 50 })]);
  }, 90_000);

  it('--role=http: still ends on SIGTERM at once, by the signal, when Redis is away', async () => {
    const port = await freePort();
    const server = start('http', port);
    expect(await eventually(async () => (await status(port, '/healthz')) === 200, 60_000, 100)).toBe(true);
    const end = await server.terminate(SHUTDOWN_TIMEOUT_MS + 10_000);
    expect(end).toMatchObject({ code: null, signal: 'SIGTERM' });
    expect(end?.ms).toBeLessThan(SHUTDOWN_TIMEOUT_MS);
  }, 90_000);

  it('HTTP_PROCESSES: the supervisor passes SIGTERM on, kills a process still there after the deadline, and exits with code 1', async () => {
    const port = await freePort();
    const supervisor = start('all', port, { HTTP_PROCESSES: '2' });
    const pid = supervisor.child.pid as number;
    const servers = await eventually(() => childrenOf(pid).length === 2 && childrenOf(pid), 20_000, 100);
    expect(servers).toHaveLength(2);
    expect(await eventually(async () => (await status(port, '/healthz')) === 200, 60_000, 100)).toBe(true);
    // Both have booted (each logs its start) before one is frozen, which its own deadline cannot help.
    expect(await eventually(() => logged(supervisor.output.text, 'Nest application successfully started').length === 2, 60_000, 100)).toBe(true);
    const [frozen] = servers as number[];
    process.kill(frozen, 'SIGSTOP');

    const end = await supervisor.terminate(SHUTDOWN_TIMEOUT_MS + 10_000);
    expect(end).toMatchObject({ code: 1, signal: null });
    expect(end?.ms).toBeLessThan(SHUTDOWN_TIMEOUT_MS + 4_000);
    expect(supervisor.output.text).toContain(`http processes ${frozen} still running ${SHUTDOWN_TIMEOUT_MS + 1_000} ms after SIGTERM; killing them`);
    // The other one ended by itself, in time.
    expect(logged(supervisor.output.text, 'shutdown did not finish within SHUTDOWN_TIMEOUT_MS')).toHaveLength(0);
    expect(await eventually(() => childrenOf(pid).length === 0 && !existsProcess(frozen), 5_000, 100)).toBe(true);
  }, 120_000);
});

function existsProcess(pid: number): boolean {
  try {
    // A killed child the supervisor never reaped stays a zombie; gone or a zombie, it runs no more.
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
}
