// `npm start`: build, make sure PostgreSQL and Redis exist (embedded PGlite and a private redis-server
// when none is configured), run the API (which also serves the web app), seed the demo data and print
// where everything is. `--no-build` skips the build. See docs/running.md.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_MAIN, describeExit, startApi, waitForReady } from './lib/api-process.mjs';
import { demoEnvironment } from './lib/demo-env.mjs';
import { printBanner } from './lib/banner.mjs';
import { isRunning, killOnExit, stopChild } from './lib/child-process.mjs';
import { startEmbeddedPostgres } from './lib/embedded-postgres.mjs';
import { portIsFree } from './lib/ports.mjs';
import { findRedisServer, isLocalRedisUrl, pingRedis, startPrivateRedis } from './lib/private-redis.mjs';
import { seedDemo } from './lib/seed-demo.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = join(repoRoot, '.data');
const log = (message) => process.stderr.write(`[start] ${message}\n`);

/** What this script started and must stop, in the order it stops them. */
const owned = { build: undefined, api: undefined, postgres: undefined, redis: undefined };
let stopping = false;
let inFlight = Promise.resolve();
const STOPPED = Symbol('stopped');

killOnExit(() => [owned.build, owned.api, owned.redis?.child]);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  // npm forwards the terminal's Ctrl-C as well, so the same signal can arrive twice: stop once.
  process.on(signal, () => void shutdown(0, `${signal}: stopping`));
}

main().catch((error) => {
  if (error === STOPPED) return;
  void shutdown(1, `failed: ${error?.message ?? error}`);
});

async function main() {
  const args = process.argv.slice(2);
  const unknown = args.filter((arg) => arg !== '--no-build');
  if (unknown.length > 0) throw new Error(`unknown argument ${unknown.join(' ')} (only --no-build is known)`);
  const env = apiEnvironment();
  const port = Number(env.PORT);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`PORT must be a port number from 1 to 65535 (got "${env.PORT}")`);
  }

  if (!args.includes('--no-build')) await step(build());
  if (!existsSync(join(repoRoot, API_MAIN))) throw new Error(`${API_MAIN} is missing: run npm start without --no-build`);
  if (!(await portIsFree(env.HOST, port))) throw new Error(`${env.HOST}:${port} is in use: stop what runs there or set PORT`);

  // Redis first: it is the quick check, so a machine without Redis fails before PGlite's initdb.
  const redis = await ensureRedis(env);
  const database = await ensureDatabase(env);

  log(`starting the API on ${env.HOST}:${port}`);
  owned.api = startApi({ repoRoot, env });
  owned.api.exited.then((result) => {
    if (!stopping) void shutdown(1, `the API exited (${describeExit(result)}); see its log above`);
  });
  const baseUrl = `http://${connectHost(env.HOST)}:${port}`;
  await step(waitForReady(baseUrl, owned.api, 60_000));

  const keysFile = join(dataDir, 'demo-keys.json');
  const seeded = await step(seedDemo(baseUrl, { keysFile, database: database.keysFor }));
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  printBanner({ publicUrl, ...seeded, database: database.shown, redis });
}

/** The API's environment: ours (plus .env) with the defaults that suit a local demo. */
function apiEnvironment() {
  // .env is for people running npm start; values already in the environment win.
  if (existsSync(join(repoRoot, '.env'))) process.loadEnvFile(join(repoRoot, '.env'));
  return demoEnvironment(process.env, { webDist: join(repoRoot, 'dist/web') });
}

/** Uses the Redis at REDIS_URL, or starts a private one when nothing answers on this machine. */
async function ensureRedis(env) {
  // With REDIS_CLUSTER=true, REDIS_URL lists a cluster's nodes; the first answering PING is enough
  // here (the API's cluster client finds the rest), and a private single node would be no substitute.
  const first = env.REDIS_URL.split(',')[0].trim();
  const cluster = /^(true|1|yes)$/.test(env.REDIS_CLUSTER ?? '');
  const shown = env.REDIS_URL.split(',').map((url) => redactPassword(url.trim())).join(',');
  const ping = await step(pingRedis(first, 1000));
  if (ping.ok) return shown;
  const binary = findRedisServer();
  if (cluster || ping.reachable || !isLocalRedisUrl(first) || !binary) throw new Error(redisAdvice(shown, ping));
  log(`nothing answers at ${shown} (${ping.reason}): starting a private redis-server`);
  const started = await step(startPrivateRedis(binary), (r) => (owned.redis = r));
  started.child.exited.then((result) => {
    if (stopping) return;
    void shutdown(1, `the private redis-server exited (${describeExit(result)}):\n  ${started.tail.join('\n  ')}`);
  });
  env.REDIS_URL = started.url;
  return `${started.url}  (private redis-server, no persistence)`;
}

/** Uses DATABASE_URL, or starts the embedded PGlite. `keysFor` names the database for the demo keys. */
async function ensureDatabase(env) {
  if (env.DATABASE_URL) {
    const shown = redactPassword(env.DATABASE_URL);
    return { shown, keysFor: shown };
  }
  log('no DATABASE_URL: starting the embedded PostgreSQL (PGlite, .data/pglite)');
  const pg = await step(
    startEmbeddedPostgres({ dataDir: join(dataDir, 'pglite'), lockFile: join(dataDir, 'pglite.pid') }),
    (started) => (owned.postgres = started),
  );
  env.DATABASE_URL = pg.url;
  // PGlite runs one transaction at a time, so a big pool only queues; a few connections are enough.
  env.DATABASE_POOL_SIZE ??= '4';
  // Its port changes every run, so the keys are filed under the data directory instead.
  return { shown: `${pg.url}  (embedded PGlite, .data/pglite)`, keysFor: 'embedded:.data/pglite' };
}

/**
 * Awaits one startup step; when a shutdown began meanwhile, main() stops there. With `register`, the
 * step starts something to stop later, and a shutdown waits for it first: a PGlite initdb cut short
 * leaves a broken data directory, and a redis-server not yet registered would outlive this script.
 */
async function step(promise, register) {
  if (register) inFlight = promise.catch(() => undefined);
  const result = await promise;
  register?.(result);
  if (stopping) throw STOPPED;
  return result;
}

function build() {
  const args = ['nx', 'run-many', '-t', 'build', '-p', 'api,web', '--outputStyle=stream'];
  const env = { ...process.env, NX_NO_CLOUD: 'true', NX_DAEMON: 'false' };
  owned.build = spawn('npx', args, { cwd: repoRoot, stdio: 'inherit', env });
  return new Promise((resolvePromise, reject) => {
    owned.build.once('error', reject);
    owned.build.once('exit', (code, signal) => {
      owned.build = undefined;
      if (code === 0) resolvePromise();
      else reject(new Error(`the build failed (${describeExit({ code, signal })}); see above`));
    });
  });
}

/** Stops what runs, API first (it still talks to its databases while closing), then exits. */
async function shutdown(code, reason) {
  if (stopping) return;
  stopping = true;
  if (reason) log(reason);
  if (owned.build && isRunning(owned.build)) owned.build.kill('SIGTERM');
  await Promise.race([inFlight, new Promise((r) => setTimeout(r, 20_000))]);
  if (owned.api) await stopChild(owned.api, 10_000);
  if (owned.postgres) await owned.postgres.stop();
  if (owned.redis) await owned.redis.stop();
  if (code === 0) log('stopped');
  process.exit(code);
}

function redisAdvice(redis, ping) {
  if (ping.reachable) return `Redis at ${redis} answered with an error: ${ping.reason}. Fix REDIS_URL.`;
  const why = `nothing answers at ${redis} (${ping.reason})`;
  if (!isLocalRedisUrl(redis)) return `${why}. Start that Redis, or unset REDIS_URL to use a local one.`;
  return (
    `${why} and no redis-server is on PATH.\n` +
    '  Install Redis (e.g. apt-get install redis-server, brew install redis), or run `docker compose up -d redis`,\n' +
    '  or set REDIS_URL to a Redis that runs elsewhere.'
  );
}

function redactPassword(url) {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

/** Where this script itself reaches the API: a wildcard bind address is not something to connect to. */
function connectHost(host) {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
