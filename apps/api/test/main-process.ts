import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const API_ROOT = join(__dirname, '..');

/** The real main.ts, run from its sources, and everything it writes (stdout and stderr) as it comes. */
export interface MainProcess {
  child: ChildProcess;
  output: { text: string };
}

/** Starts main.ts with `--role=<role>` and `args` in a test environment (its own Redis prefix), `env` on top. */
export function spawnMain(role: string, env: Record<string, string>, args: string[] = []): MainProcess {
  const output = { text: '' };
  const child = spawn(process.execPath, ['-r', join(API_ROOT, 'test/swc-register.js'), join(API_ROOT, 'src/main.ts'), `--role=${role}`, ...args], {
    env: { ...process.env, NODE_ENV: 'test', REDIS_PREFIX: `cbtest:${randomBytes(4).toString('hex')}`, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => (output.text += chunk));
  child.stderr?.on('data', (chunk) => (output.text += chunk));
  return { child, output };
}

/** The processes whose parent is `pid`, from /proc. */
export function childrenOf(pid: number): number[] {
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

/** GET on a new connection each time, so a supervisor's round robin hands each to the next process; undefined when nothing answers. */
export async function httpStatus(port: number, path: string): Promise<number | undefined> {
  try {
    return (await fetch(`http://127.0.0.1:${port}${path}`, { headers: { connection: 'close' } })).status;
  } catch {
    return undefined;
  }
}
