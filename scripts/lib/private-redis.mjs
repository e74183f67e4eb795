// Redis for npm start: use the one at REDIS_URL when it answers, else start a throwaway redis-server on
// a free local port. Nothing in Redis needs to outlive the process (rate limits, caches, queues of a
// demo), so the private one keeps no snapshot and no append-only file.
import { Redis } from 'ioredis';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { isRunning, spawnOwned, stopChild } from './child-process.mjs';
import { freePort } from './ports.mjs';

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/**
 * Pings the Redis at `url`. `reachable` is false only when nothing answers at all (refused, timeout);
 * a server that answers with an error (wrong password, say) is reachable but not `ok`.
 */
export async function pingRedis(url, timeoutMs = 1000) {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  // ioredis rejects connect() with a bare "Connection is closed."; the error event says why (ECONNREFUSED).
  let cause;
  client.on('error', (error) => (cause ??= error.code ?? error.message));
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    return { ok: false, reachable: false, reason: cause ?? error.message };
  }
  try {
    await client.ping();
    return { ok: true, reachable: true };
  } catch (error) {
    return { ok: false, reachable: true, reason: error.message };
  } finally {
    client.disconnect();
  }
}

/** Absolute path of `redis-server` on PATH, or undefined. */
export function findRedisServer() {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, 'redis-server');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

export function isLocalRedisUrl(url) {
  try {
    return LOCAL_HOSTS.has(new URL(url).hostname);
  } catch {
    return false;
  }
}

/** Starts `redis-server` on 127.0.0.1:<free port> and waits until it answers PING. */
export async function startPrivateRedis(binary) {
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  // Its log is plain text; keep the tail to explain a failure instead of mixing it into the API's JSON.
  const child = spawnOwned(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const tail = [];
  const keep = (chunk) => {
    tail.push(...chunk.toString().split('\n').filter(Boolean));
    tail.splice(0, Math.max(0, tail.length - 20));
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const url = `redis://127.0.0.1:${port}`;
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline && isRunning(child)) {
    if ((await pingRedis(url, 300)).ok) {
      return { url, port, child, tail, stop: () => stopChild(child, 5000) };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stopChild(child, 1000);
  throw new Error(`redis-server did not start on port ${port}:\n  ${tail.join('\n  ')}`);
}
