import { type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { eventually } from '../../../test/eventually';
import { freePort } from '../../../test/free-port';
import { childrenOf, httpStatus as status, spawnMain } from '../../../test/main-process';
import { createTestDatabase, databaseUrl, dropTestDatabase } from '../../../test/test-database';

const METRICS_TOKEN = 'a-metrics-token-for-this-test';

/** GET /metrics on a new connection (whichever process takes it). */
async function scrape(port: number): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}`, connection: 'close' } });
  expect(res.status).toBe(200);
  return res.text();
}

/** One sample's value in exposition text, by its name and labels as written; undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** Whether four new connections in a row are all answered ready, whichever process takes each. */
const allReady = (port: number) => async () => (await Promise.all([1, 2, 3, 4].map(() => status(port, '/readyz')))).every((s) => s === 200);

/**
 * HTTP_PROCESSES (docs/scaling.md): the real main.ts, run from its sources, forks that many servers
 * that share one port, replaces one that dies, and stops them all on SIGTERM.
 */
describe('HTTP_PROCESSES', () => {
  let database: string;
  let primary: ChildProcess | undefined;
  let output = { text: '' };

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    if (primary && primary.exitCode === null) primary.kill('SIGKILL');
    await dropTestDatabase(database);
  });

  /** The real main.ts with HTTP_PROCESSES=2 on `port`; its output is collected in `output`. */
  const start = (port: number): ChildProcess => {
    const main = spawnMain('http', {
      LOG_LEVEL: 'warn',
      DATABASE_URL: databaseUrl(database),
      DATABASE_POOL_SIZE: '2',
      MIGRATE_ON_BOOT: 'true',
      PORT: String(port),
      HTTP_PROCESSES: '2',
      METRICS_TOKEN: METRICS_TOKEN,
      // How long a scrape waits for the supervisor to gather every process (and /readyz for its checks):
      // beside a CI run's other suites, booted-from-source processes on two cores missed the 2 s default.
      READYZ_TIMEOUT_MS: '10000',
    });
    output = main.output;
    return main.child;
  };

  it('serves one port from N processes, replaces one that dies, and stops them all on SIGTERM', async () => {
    const port = await freePort();
    primary = start(port);
    const pid = primary.pid as number;

    const servers = await eventually(() => childrenOf(pid).length === 2 && childrenOf(pid), 20_000, 100);
    expect(servers).toHaveLength(2);
    expect(await eventually(async () => (await status(port, '/readyz')) === 200, 60_000, 100)).toBe(true);
    // Both are up and listening: new connections keep being answered whichever process takes them.
    expect(await eventually(allReady(port), 60_000, 100)).toBe(true);

    // One dies: the other keeps serving, and the supervisor starts a replacement.
    const [killed, kept] = servers as number[];
    process.kill(killed, 'SIGKILL');
    const replaced = await eventually(() => {
      const now = childrenOf(pid);
      return now.length === 2 && !now.includes(killed) && now;
    }, 20_000, 100);
    expect(replaced).toHaveLength(2);
    expect(replaced).not.toContain(killed);
    expect(replaced).toContain(kept);
    // The supervisor logs it before it forks the replacement, but its output reaches us through a pipe
    // and may arrive after /proc shows the new process.
    const logged = `http process ${killed} exited (SIGKILL)`;
    await eventually(() => output.text.includes(logged), 5_000);
    expect(output.text).toContain(logged);
    expect(await eventually(allReady(port), 60_000, 100)).toBe(true);

    // SIGTERM: every server shuts down, then the supervisor exits cleanly.
    const exited = new Promise<number | null>((resolve) => primary?.once('exit', (code) => resolve(code)));
    primary.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(childrenOf(pid)).toEqual([]);
    expect(await status(port, '/readyz')).toBeUndefined();
  }, 120_000);

  it('answers /metrics with every process\'s figures summed, whichever process is scraped', async () => {
    const port = await freePort();
    primary = start(port);
    try {
      const healthz = 'crowdbox_http_request_duration_seconds_count{method="GET",route="/healthz",status_class="2xx"}';
      const up = 'crowdbox_metrics_source_up{source="processes"}';
      const poolMax = 'crowdbox_db_pool_connections{state="max"}';
      // Why a gathering failed is a comment line of the text; shown with the figure when one does.
      const processes = (text: string) => ({ up: sample(text, up), why: text.split('\n').filter((l) => l.startsWith(`# ${up}`)) });
      // Both processes are summed once the two pools (DATABASE_POOL_SIZE=2 each) are in the total. Ready
      // answers alone do not show that: node:cluster hands connections only to processes already
      // listening, so four ready answers in a row may all come from the first one up. (Before the
      // supervisor asked only processes that had offered their figures, the first scrape then waited for
      // the second one, still booting, and failed: the flake of two clean-clone CI runs.)
      expect(await eventually(allReady(port), 60_000, 100)).toBe(true);
      expect(await eventually(async () => sample(await scrape(port), poolMax) === 4, 60_000, 250)).toBe(true);
      // New connections take turns between the two processes: each counts about half of these.
      for (let i = 0; i < 40; i++) expect(await status(port, '/healthz')).toBe(200);
      for (let i = 0; i < 4; i++) {
        const text = await scrape(port);
        expect(processes(text)).toEqual({ up: 1, why: [] });
        expect(sample(text, healthz)).toBe(40);
        // Two processes, each with its pool of DATABASE_POOL_SIZE=2: summed. (Not total, which falls to 0
        // when a slow run leaves the pools idle past pg's 10 s idle timeout: a CI run failed on it.)
        expect(sample(text, poolMax)).toBe(4);
        // The whole system's figures appear once, not once per process.
        expect(text.split('\n').filter((l) => l.startsWith('# TYPE crowdbox_webhook_events_pending '))).toHaveLength(1);
      }

      // One dies and its replacement boots (seconds, from sources): the survivor's scrapes sum the
      // processes that can answer, at once, instead of waiting for one that cannot yet and giving up.
      const pid = primary.pid as number;
      const [killed] = childrenOf(pid);
      process.kill(killed, 'SIGKILL');
      const replacement = await eventually(() => {
        const now = childrenOf(pid);
        return now.length === 2 && !now.includes(killed) && now;
      }, 20_000, 20);
      expect(replacement).toHaveLength(2);
      const during = Date.now();
      const text = await scrape(port);
      expect(processes(text)).toEqual({ up: 1, why: [] });
      expect(Date.now() - during).toBeLessThan(5_000);
      // Once it has booted, it is summed in again: its pool's size is back in the total.
      expect(await eventually(async () => sample(await scrape(port), poolMax) === 4, 60_000, 250)).toBe(true);
    } finally {
      const exited = new Promise((resolve) => primary?.once('exit', resolve));
      primary.kill('SIGTERM');
      await exited;
    }
  }, 120_000);

  it('keeps replacing processes that die while serving, however soon after they started', async () => {
    // Only a process that dies before it listens counts toward giving up: five that crash while serving
    // (a poison request, say) must not stop the healthy ones. They were counted, within 20 s of a start.
    const port = await freePort();
    primary = start(port);
    const pid = primary.pid as number;
    try {
      expect(await eventually(allReady(port), 60_000, 100)).toBe(true);
      for (let i = 0; i < 5; i++) {
        const [victim] = childrenOf(pid);
        process.kill(victim, 'SIGKILL');
        expect(await eventually(() => childrenOf(pid).length === 2 && !childrenOf(pid).includes(victim), 20_000, 50)).toBe(true);
        expect(await eventually(allReady(port), 60_000, 100)).toBe(true);
      }
      expect(output.text).not.toContain('giving up');
      expect(primary.exitCode).toBeNull();
    } finally {
      if (primary.exitCode === null && primary.signalCode === null) {
        const exited = new Promise((resolve) => primary?.once('exit', resolve));
        primary.kill('SIGTERM');
        await exited;
      }
    }
  }, 240_000);

  it('gives up with exit code 1 when its processes keep dying as they start (the port taken)', async () => {
    const taken = createServer();
    const port = await new Promise<number>((resolve) => taken.listen(0, '127.0.0.1', () => resolve((taken.address() as { port: number }).port)));
    try {
      primary = start(port);
      const code = await new Promise<number | null>((resolve) => primary?.once('exit', (c) => resolve(c)));
      expect(output.text).toContain('keep exiting right after they start; giving up');
      expect(code).toBe(1);
      expect(childrenOf(primary.pid as number)).toEqual([]);
    } finally {
      taken.close();
    }
    // Five processes boot from sources and die before the supervisor gives up: ~20 s on a quiet
    // machine, much longer on one busy with other test runs.
  }, 240_000);
});
