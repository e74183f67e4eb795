// The API as a child process: the same compiled binary production runs (`main.js --role=all`), with
// tsconfig-paths resolving the @crowdbox/* libs inside dist/api.
import { join } from 'node:path';
import { spawnOwned } from './child-process.mjs';

export const API_MAIN = 'dist/api/apps/api/src/main.js';

/** Spawns the API; its JSON log lines go straight to our stdout/stderr, unchanged. */
export function startApi({ repoRoot, env }) {
  const args = ['-r', 'tsconfig-paths/register', join(repoRoot, API_MAIN), '--role=all'];
  return spawnOwned(process.execPath, args, {
    cwd: repoRoot,
    env: { ...env, TS_NODE_PROJECT: 'tsconfig.base.json', TS_NODE_BASEURL: 'dist/api' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

/**
 * Polls GET /readyz until it answers 200 with Redis `ok` too (migrations done, PostgreSQL and Redis
 * answering: /readyz alone is 200 without Redis, which a serving process can do without). Rejects
 * when the child exits first or after `timeoutMs`, with the last answer seen.
 */
export async function waitForReady(baseUrl, child, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer yet';
  let exited;
  child.exited.then((result) => (exited = result));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`the API exited while starting (${describeExit(exited)}); see its log above`);
    try {
      const res = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2000) });
      const text = await res.text();
      if (res.status === 200 && JSON.parse(text).data?.redis === 'ok') return;
      last = `${res.status} ${text}`;
    } catch (error) {
      last = error.cause?.code ?? error.message;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the API was not ready after ${timeoutMs / 1000} s (last GET /readyz: ${last})`);
}

export function describeExit({ code, signal }) {
  return signal ? `signal ${signal}` : `exit code ${code}`;
}
