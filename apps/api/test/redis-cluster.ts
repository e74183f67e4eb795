import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { eventually } from './eventually';
import { freePort } from './free-port';

const run = promisify(execFile);

export interface TestRedisCluster {
  /** Every node, as REDIS_URL lists them with REDIS_CLUSTER=true. */
  url: string;
  ports: number[];
  stop: () => Promise<void>;
}

/**
 * A real Redis Cluster of three masters on loopback, from the same redis-server binary CI installs:
 * each node in its own temporary directory, the slots assigned with `redis-cli --cluster create`.
 */
export async function startRedisCluster(nodes = 3): Promise<TestRedisCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'cb-redis-cluster-'));
  const ports: number[] = [];
  const children: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGKILL');
          }),
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < nodes; i++) {
      const port = await freePort();
      ports.push(port);
      children.push(
        spawn(
          'redis-server',
          [
            '--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`,
            '--dir', dir, '--save', '', '--appendonly', 'no', '--logfile', `redis-${port}.log`,
          ],
          { stdio: 'ignore' },
        ),
      );
    }
    const answer = async (port: number, ...command: string[]) => (await run('redis-cli', ['-p', String(port), ...command]).catch(() => ({ stdout: '' }))).stdout;
    const all = async (check: (port: number) => Promise<boolean>) => (await Promise.all(ports.map(check))).every(Boolean);
    if (!(await eventually(() => all(async (port) => (await answer(port, 'ping')).includes('PONG'))))) throw new Error('redis-server did not start');
    await run('redis-cli', ['--cluster', 'create', ...ports.map((port) => `127.0.0.1:${port}`), '--cluster-replicas', '0', '--cluster-yes']);
    if (!(await eventually(() => all(async (port) => (await answer(port, 'cluster', 'info')).includes('cluster_state:ok'))))) {
      throw new Error('the Redis Cluster did not reach cluster_state:ok');
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: ports.map((port) => `redis://127.0.0.1:${port}`).join(','), ports, stop };
}
