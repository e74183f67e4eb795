import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { eventually } from '../../../test/eventually';
import { freePort } from '../../../test/free-port';
import { createTestDatabase, databaseUrl, dropTestDatabase } from '../../../test/test-database';

const API_ROOT = join(__dirname, '../../..');

/** The processes whose parent is `pid`, from /proc. */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) out.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return out.sort();
}

/** GET on a new connection each time, so the supervisor's round robin hands each to the next process. */
async function status(port: number, path: string): Promise<number | undefined> {
  try {
    return (await fetch(`http://127.0.0.1:${port}${path}`, { headers: { connection: 'close' } })).status;
  } catch {
    return undefined;
  }
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
  let output = '';

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    if (primary && primary.exitCode === null) primary.kill('SIGKILL');
    await dropTestDatabase(database);
  });

  /** The real main.ts with HTTP_PROCESSES=2 on `port`; its output is collected in `output`. */
  const start = (port: number): ChildProcess => {
    output = '';
    const child = spawn(process.execPath, ['-r', join(API_ROOT, 'test/swc-register.js'), join(API_ROOT, 'src/main.ts'), '--role=http'], {
      env: {
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        DATABASE_URL: databaseUrl(database),
        DATABASE_POOL_SIZE: '2',
        MIGRATE_ON_BOOT: 'true',
        REDIS_PREFIX: `cbtest:${randomBytes(4).toString('hex')}`,
        PORT: String(port),
        HTTP_PROCESSES: '2',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    return child;
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
    await eventually(() => output.includes(logged), 5_000);
    expect(output).toContain(logged);
    expect(await eventually(allReady(port), 60_000, 100)).toBe(true);

    // SIGTERM: every server shuts down, then the supervisor exits cleanly.
    const exited = new Promise<number | null>((resolve) => primary?.once('exit', (code) => resolve(code)));
    primary.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(childrenOf(pid)).toEqual([]);
    expect(await status(port, '/readyz')).toBeUndefined();
  }, 120_000);

  it('gives up with exit code 1 when its processes keep dying as they start (the port taken)', async () => {
    const taken = createServer();
    const port = await new Promise<number>((resolve) => taken.listen(0, '127.0.0.1', () => resolve((taken.address() as { port: number }).port)));
    try {
      primary = start(port);
      const code = await new Promise<number | null>((resolve) => primary?.once('exit', (c) => resolve(c)));
      expect(output).toContain('keep exiting right after they start; giving up');
      expect(code).toBe(1);
      expect(childrenOf(primary.pid as number)).toEqual([]);
    } finally {
      taken.close();
    }
  }, 120_000);
});
