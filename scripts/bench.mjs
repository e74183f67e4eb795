// `npm run bench`: the real stack (dist/api on PostgreSQL + Redis) under load. add_task and add_tasks
// are each measured next to a minimal Fastify + pg baseline in the same run (bench/baseline-server.mjs);
// checkout (checkout + submit cycles of N simulated workers), export (a project's annotations,
// JSON and COCO) and webhooks (10,000 completions delivered to a local receiver) against their
// absolute targets. Prints medians of several rounds, and writes
// bench/results/latest.json (gitignored). Benchmarks are not tests: it exits non-zero only when the
// run is invalid (a non-2xx answer, a row count that does not match, an invariant violated, an export
// that does not parse, a webhook event lost or answered other than 200), never for a missed target.
// See docs/performance.md.
//
//   npm run bench                        build, then every suite (about 10 minutes)
//   npm run bench -- --no-build          use the existing dist/api
//   npm run bench -- --suite=add_task    some suites (add_task,add_tasks,checkout,export,webhooks)
//   npm run bench -- --rounds=5 --duration=10 --warmup=3 --connections=32
//   npm run bench -- --workers=200       checkout and webhooks: simulated workers (distinct users), each
//                                        looping checkout -> submit; --rounds, --duration, --warmup apply
//   npm run bench -- --suite=checkout --think-ms=400   each worker holds its lease 400 ms before submitting
//                                        (0, the default, is the issue's closed loop): latency below saturation
//   npm run bench -- --webhook-tasks=10000 --webhook-rounds=3 --webhook-warmup=2000 --webhook-drain=60
//                                        webhooks: tasks completed per round (each round with a new
//                                        callback address, confirmed by its challenge), rounds (median
//                                        reported), warm-up tasks before them, seconds to wait for the
//                                        last deliveries before the missing ones count as lost
//   npm run bench -- --webhook-backlog     webhooks: hold deliveries (queue paused) until every task of a
//                                        round is complete, then release them: the delivery rate alone
//   npm run bench -- --no-webhook-control  webhooks: skip the control run (the same completions without
//                                        a callback_url, to tell what the webhooks add)
//   npm run bench -- --export-tasks=100000 --export-runs=3 --export-warmup=1
//   npm run bench -- --max-foreign=0.25 --retries=2   a run during which other programs used more than
//                                              0.25 cores is measured again, at most twice (the machine is shared)
//   npm run bench -- --batches=30 --batch-size=1000 --bulk-connections=4
//   npm run bench -- --api-env=LOG_LEVEL=info   extra env for the API child (repeatable)
//   npm run bench -- --api-roles=split          the API as two processes, --role=http and --role=jobs
//                                              (docs/webhooks.md §6), instead of one --role=all
//   npm run bench -- --profile[=add_tasks]      CPU-profile both servers under add_task (or add_tasks) load
//                                              instead of measuring; writes bench/results/*.cpuprofile
//   npm run bench -- --profile=checkout|export  CPU-profile the API alone under checkout + submit load
//                                              (times per cycle) or during one export of each format
//   npm run bench -- --profile=webhooks         CPU-profile the API during one webhooks round (after the
//                                              warm-up); times per completed and delivered task
//   npm run bench -- --diagnose                 add_task only, with extra baseline variants that add parts
//                                              of the real API's work (BEGIN/COMMIT, Redis, unnest INSERT)
//                                              or a prepared INSERT; see bench/baseline-server.mjs
//
// Env: BENCH_DATABASE_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres; the run drops and
// creates the database crowdbox_bench there), BENCH_REDIS_URL (default redis://127.0.0.1:6379).
//
// Two runs at once: when another `node scripts/bench.mjs` is running on this machine, this run keeps
// to its own database crowdbox_bench_<pid>, Redis prefix cbbench_<pid>, API copy
// bench/results/api-dist-<pid> and logs api-<pid>.log, baseline-<pid>.log (removed at the end, the
// logs kept), so neither run drops, deletes or flushes what the other uses. They still share the CPU:
// see "other cores" in the results.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { runAddTask } from '../bench/add-task.bench.mjs';
import { runAddTasks } from '../bench/add-tasks.bench.mjs';
import { checkoutLoad, runCheckout } from '../bench/checkout.bench.mjs';
import { EXPORT_FORMATS, buildExportFixture, exportOnce, runExport } from '../bench/export.bench.mjs';
import { runWebhooks } from '../bench/webhooks.bench.mjs';
import { setUpRequester, signUpUsers } from '../bench/lib/api-setup.mjs';
import { autocannonRound } from '../bench/lib/autocannon-round.mjs';
import { cpuMonitor } from '../bench/lib/cpu-monitor.mjs';
import { formatPerTask } from '../bench/lib/message-counters.mjs';
import { databaseUrl, recreateDatabase, withClient } from '../bench/lib/db.mjs';
import { printProfileSummary, summarizeProfile } from '../bench/lib/profile-summary.mjs';
import { freePort, killAllSync, startServer, stopAll } from '../bench/lib/start-server.mjs';
import { fmt, table } from '../bench/lib/stats.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = join(ROOT, 'bench', 'results');
/**
 * The API measured runs from a private copy of dist/api: other people rebuild dist/api (rm -rf + tsc)
 * at any time, which would pull the files from under a running benchmark. Inside the repository (and
 * gitignored) so that node_modules resolves as from dist/api.
 */
let API_DIST = join(RESULTS, 'api-dist');
let DB_NAME = 'crowdbox_bench';
/** The API's and the baseline's log files (suffixed like the rest in a run beside another, see the top). */
let LOG_SUFFIX = '';
const TARGET_RATIO = 0.8;
const TARGET_BULK_TASKS_PER_SECOND = 20_000;
const TARGET_CHECKOUTS_PER_SECOND = 1_000;
const TARGET_CHECKOUT_P99_MS = 50;
const TARGET_EXPORT_SECONDS = 3;
const TARGET_EXPORT_RSS_MB = 100;
const TARGET_DELIVERIES_PER_SECOND = 1_000;
const TARGET_DELIVERY_P99_MS = 1_000;
const SUITES = ['add_task', 'add_tasks', 'checkout', 'export', 'webhooks'];
/** The API's Redis keys in a run (REDIS_PREFIX); cleared before and after, see clearRedisPrefix. */
let REDIS_PREFIX = 'cbbench';
/** The prompt add_task renders from DEFAULT_PROJECT with {object: 'car'} (the export fixture's tasks). */
const FIXTURE_PROMPT = '<p>Draw a box around every car in <b>the picture</b>.</p>';

// ---------------------------------------------------------------------------------------------- args
function parseArgs(argv) {
  const opts = {
    build: true,
    suites: [...SUITES],
    rounds: 5,
    duration: 10,
    warmup: 3,
    connections: 32,
    batches: 30,
    batchSize: 1000,
    bulkConnections: 4,
    bulkWarmup: 4,
    workers: 200,
    thinkMs: 0,
    exportTasks: 100_000,
    exportRuns: 3,
    exportWarmup: 1,
    webhookTasks: 10_000,
    webhookRounds: 3,
    webhookWarmup: 2000,
    webhookDrain: 60,
    webhookControl: true,
    webhookBacklog: false,
    apiEnv: {},
    profile: null,
    diagnose: false,
    maxForeign: 0.25,
    retries: 2,
    apiRoles: 'all',
  };
  for (const arg of argv) {
    const [flag, ...rest] = arg.split('=');
    const value = rest.join('=');
    const num = () => {
      const n = Number(value);
      if (!Number.isFinite(n) || n <= 0) throw new Error(`${flag} needs a positive number`);
      return n;
    };
    switch (flag) {
      case '--no-build': opts.build = false; break;
      case '--suite': opts.suites = value.split(',').filter(Boolean); break;
      case '--rounds': opts.rounds = num(); break;
      case '--duration': opts.duration = num(); break;
      case '--warmup': opts.warmup = value === '0' ? 0 : num(); break;
      case '--connections': opts.connections = num(); break;
      case '--batches': opts.batches = num(); break;
      case '--batch-size': opts.batchSize = num(); break;
      case '--bulk-connections': opts.bulkConnections = num(); break;
      case '--max-foreign': opts.maxForeign = Number(value); break;
      case '--retries': opts.retries = value === '0' ? 0 : num(); break;
      case '--bulk-warmup': opts.bulkWarmup = value === '0' ? 0 : num(); break;
      case '--workers': opts.workers = num(); break;
      case '--think-ms': opts.thinkMs = value === '0' ? 0 : num(); break;
      case '--export-tasks': opts.exportTasks = num(); break;
      case '--export-runs': opts.exportRuns = num(); break;
      case '--export-warmup': opts.exportWarmup = value === '0' ? 0 : num(); break;
      case '--webhook-tasks': opts.webhookTasks = Math.round(num()); break;
      case '--webhook-rounds': opts.webhookRounds = Math.round(num()); break;
      case '--webhook-warmup': opts.webhookWarmup = value === '0' ? 0 : Math.round(num()); break;
      case '--webhook-drain': opts.webhookDrain = num(); break;
      case '--no-webhook-control': opts.webhookControl = false; break;
      case '--webhook-backlog': opts.webhookBacklog = true; break;
      case '--api-roles':
        if (!['all', 'split'].includes(value)) throw new Error('--api-roles is all or split');
        opts.apiRoles = value;
        break;
      case '--api-env': {
        const i = value.indexOf('=');
        if (i < 1) throw new Error('--api-env needs KEY=VALUE');
        opts.apiEnv[value.slice(0, i)] = value.slice(i + 1);
        break;
      }
      case '--profile': opts.profile = value || 'add_task'; break;
      case '--diagnose': opts.diagnose = true; opts.suites = ['add_task']; break;
      case '--help': case '-h':
        console.log(readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').filter((l) => l.startsWith('//')).join('\n'));
        process.exit(0);
        break;
      default: throw new Error(`unknown option ${arg} (see --help)`);
    }
  }
  for (const s of opts.suites) if (!SUITES.includes(s)) throw new Error(`unknown suite ${s}`);
  if (opts.profile && !SUITES.includes(opts.profile)) throw new Error(`unknown profile suite ${opts.profile}`);
  if (opts.profile) opts.suites = [opts.profile];
  return opts;
}

function commandLine() {
  const args = process.argv.slice(2).map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`));
  if (process.env.npm_lifecycle_event === 'bench') return `npm run bench${args.length ? ' -- ' + args.join(' ') : ''}`;
  return ['node scripts/bench.mjs', ...args].join(' ');
}

const log = (...a) => console.log(...a);

// ------------------------------------------------------------------------------------------ servers
function childEnv(extra) {
  // A clean environment: only what the servers need, so settings of the calling shell do not leak in.
  const keep = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ'];
  const env = Object.fromEntries(keep.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]]));
  return { ...env, ...extra };
}

/**
 * The API child, `--role=all` (the default) or `http`; `jobs` runs the queue workers and the relay and
 * listens on no port: it is started after the HTTP one, passes startServer's readiness check through
 * that one's port (`readyPort`), and is then awaited until its webhook-delivery worker is in Redis.
 */
async function startApi({ dbUrl, redisUrl, apiEnv, profileFile, role = 'all', readyPort }) {
  const main = join(API_DIST, 'apps/api/src/main.js');
  const port = role === 'jobs' ? readyPort : await freePort();
  const args = ['-r', 'tsconfig-paths/register'];
  if (profileFile) args.unshift('-r', join(ROOT, 'bench/lib/cpu-profile.cjs'));
  args.push(main, `--role=${role}`);
  const server = await startServer({
    name: role === 'jobs' ? 'api-jobs' : 'api',
    cwd: ROOT,
    port,
    args,
    logFile: join(RESULTS, `api${role === 'jobs' ? '-jobs' : ''}${LOG_SUFFIX}.log`),
    env: childEnv({
      TS_NODE_PROJECT: 'tsconfig.base.json',
      TS_NODE_BASEURL: API_DIST,
      DATABASE_URL: dbUrl,
      REDIS_URL: redisUrl,
      REDIS_PREFIX,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_REQUESTS: '100000000',
      // 200 simulated workers from one address are not what the per-user limits are for.
      SESSION_RATE_LIMIT_REQUESTS: '100000000',
      NODE_ENV: 'production',
      ...(profileFile ? { BENCH_CPU_PROFILE: profileFile } : {}),
      ...apiEnv,
    }),
  });
  if (role === 'jobs') {
    const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
    const queue = new Queue('webhook-delivery', { connection, prefix: `${REDIS_PREFIX}:bull` });
    try {
      for (let i = 0; (await queue.getWorkers()).length === 0; i++) {
        if (server.child.exitCode !== null || i >= 300) throw new Error(`the jobs process did not start its workers:\n${server.tail()}`);
        await sleep(100);
      }
    } finally {
      await queue.close();
      connection.disconnect();
    }
  }
  return server;
}

async function startBaseline({ dbUrl, poolSize, profileFile, redisUrl }) {
  const port = await freePort();
  const args = [join(ROOT, 'bench/baseline-server.mjs')];
  if (profileFile) args.unshift('-r', join(ROOT, 'bench/lib/cpu-profile.cjs'));
  return startServer({
    name: 'baseline',
    cwd: ROOT,
    port,
    args,
    logFile: join(RESULTS, `baseline${LOG_SUFFIX}.log`),
    env: childEnv({
      DATABASE_URL: dbUrl,
      PORT: String(port),
      DATABASE_POOL_SIZE: String(poolSize),
      NODE_ENV: 'production',
      ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
      ...(profileFile ? { BENCH_CPU_PROFILE: profileFile } : {}),
    }),
  });
}

// ------------------------------------------------------------------------------------------ helpers
/** The pids of other `node …/scripts/bench.mjs` processes on this machine (Linux /proc; [] elsewhere). */
function otherBenchDrivers() {
  const found = [];
  let dirs = [];
  try {
    dirs = readdirSync('/proc');
  } catch {
    return found;
  }
  for (const d of dirs) {
    if (!/^\d+$/.test(d) || Number(d) === process.pid) continue;
    try {
      const args = readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0');
      if (/(^|\/)node$/.test(args[0]) && args.slice(1).some((a) => /(^|\/)scripts\/bench\.mjs$/.test(a))) found.push(Number(d));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

/** Beside another run: this run's own database, Redis prefix, API copy and logs (see the top). */
function isolateFrom(others) {
  if (others.length === 0) return false;
  DB_NAME = `crowdbox_bench_${process.pid}`;
  REDIS_PREFIX = `cbbench_${process.pid}`;
  API_DIST = join(RESULTS, `api-dist-${process.pid}`);
  LOG_SUFFIX = `-${process.pid}`;
  return true;
}

/** A setting's default, read from the measured API's own config schema so the report never restates it. */
function apiDefault(name) {
  const { configSchema } = createRequire(import.meta.url)(join(API_DIST, 'apps/api/src/config/config.schema.js'));
  return configSchema.shape[name].parse(undefined);
}

/** How the report names the workers' think time between checkout and submit. */
function thinking(thinkMs) {
  return thinkMs > 0 ? `${thinkMs} ms holding the lease -> ` : '';
}

function build() {
  log('building dist/api: npx nx run api:build');
  const r = spawnSync('npx', ['nx', 'run', 'api:build', '--outputStyle=stream'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, NX_NO_CLOUD: 'true', NX_DAEMON: 'false' },
  });
  if (r.status !== 0) throw new Error(`api build failed (exit ${r.status})`);
}

function countFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).length;
}

/** Copies dist/api to API_DIST, checking the copy is whole (a concurrent rebuild may be deleting it). */
function snapshotDist({ rebuild }) {
  const src = join(ROOT, 'dist/api');
  for (let attempt = 1; attempt <= 3; attempt++) {
    if (rebuild || attempt > 1) build();
    try {
      if (!existsSync(join(src, 'apps/api/src/main.js'))) throw new Error('dist/api/apps/api/src/main.js is missing');
      rmSync(API_DIST, { recursive: true, force: true });
      cpSync(src, API_DIST, { recursive: true });
      const [a, b] = [countFiles(src), countFiles(API_DIST)];
      if (a !== b || !existsSync(join(API_DIST, 'apps/api/src/app.module.js'))) throw new Error(`copied ${b} of ${a} files`);
      log(`dist/api copied to ${API_DIST.slice(ROOT.length + 1)} (${b} files)`);
      return;
    } catch (error) {
      log(`could not snapshot dist/api (${error.message})${attempt < 3 ? ': building again' : ''}`);
    }
  }
  throw new Error('no complete dist/api to run: is someone rebuilding it in a loop?');
}

function gitCommit() {
  // Read-only look at .git (no git command): which sources were measured.
  try {
    const head = readFileSync(join(ROOT, '.git/HEAD'), 'utf8').trim();
    if (!head.startsWith('ref: ')) return head;
    const ref = head.slice(5);
    const file = join(ROOT, '.git', ref);
    if (existsSync(file)) return readFileSync(file, 'utf8').trim();
    const packed = readFileSync(join(ROOT, '.git/packed-refs'), 'utf8').split('\n').find((l) => l.endsWith(' ' + ref));
    return packed?.split(' ')[0] ?? null;
  } catch {
    return null;
  }
}

async function machine(adminUrl) {
  const cpus = os.cpus();
  const pgVersion = await withClient(adminUrl, async (c) => (await c.query('SHOW server_version')).rows[0].server_version);
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    postgres: pgVersion,
    platform: `${os.platform()} ${os.release()}`,
  };
}

/** Deletes the keys under `${REDIS_PREFIX}:` (the bench API's own); resolves to how many. */
async function clearRedisPrefix(redisUrl) {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    let removed = 0;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${REDIS_PREFIX}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) removed += await redis.unlink(...keys);
    } while (cursor !== '0');
    return removed;
  } finally {
    redis.disconnect();
  }
}

const yesNo = (ok) => (ok ? 'MET' : 'NOT MET');
const maxOf = (xs) => (xs.some((x) => x !== null) ? Math.max(...xs.filter((x) => x !== null)).toFixed(2) : 'n/a');

// --------------------------------------------------------------------------------------------- main
async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const command = commandLine();
  const adminUrl = process.env.BENCH_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const others = otherBenchDrivers();
  const isolated = isolateFrom(others);
  const dbUrl = databaseUrl(adminUrl, DB_NAME);
  const started = new Date();
  mkdirSync(RESULTS, { recursive: true });

  log(`$ ${command}`);
  if (isolated) {
    log(
      `another benchmark is running (pid ${others.join(', ')}): this run uses database ${DB_NAME}, Redis prefix ${REDIS_PREFIX}, ` +
        `${API_DIST.slice(ROOT.length + 1)} and api${LOG_SUFFIX}.log, so neither disturbs the other's data (the CPU is shared)`,
    );
  }
  const env = await machine(adminUrl);
  log(
    `${started.toISOString()}  ${env.cpus} cores (${env.cpuModel}), ${env.memoryGiB} GiB, node ${env.node}, PostgreSQL ${env.postgres}` +
      ' — PostgreSQL, the server under test and autocannon share these cores',
  );
  snapshotDist({ rebuild: opts.build });

  log(`database: drop and create ${DB_NAME}`);
  await recreateDatabase(adminUrl, DB_NAME);
  // Leftovers of an earlier run (checkout-expiry jobs due in 10 minutes, rate-limit counters) would
  // otherwise be processed by this run's API, against a database that no longer has their rows.
  log(`redis: ${await clearRedisPrefix(redisUrl)} keys under ${REDIS_PREFIX}: removed`);

  const profiling = opts.profile !== null;
  const profileFile = (name) => (profiling ? join(RESULTS, `profile-${name}-${opts.profile}.cpuprofile`) : undefined);
  if (profiling) for (const n of ['real', 'baseline', 'jobs']) rmSync(profileFile(n) + '.done', { force: true });

  // A loopback receiver needs private addresses allowed (docs/webhooks.md §5); only for this suite, so
  // the other suites run the API exactly as before.
  // Password hashes at the work every run before the setting had (p = 1): the suites sign up hundreds of
  // workers before they measure, and no suite measures a log-in.
  const apiEnv = {
    PASSWORD_SCRYPT_P: '1',
    ...(opts.suites.includes('webhooks') ? { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } : {}),
    ...opts.apiEnv,
  };
  log('starting the API (runs migrations)…');
  const split = opts.apiRoles === 'split';
  const api = await startApi({ dbUrl, redisUrl, apiEnv, profileFile: profileFile('real'), role: split ? 'http' : 'all' });
  log(`  api pid ${api.pid} on ${api.url}${split ? ' (--role=http)' : ''}`);
  const apiJobs = split ? await startApi({ dbUrl, redisUrl, apiEnv, profileFile: profileFile('jobs'), role: 'jobs', readyPort: api.port }) : null;
  if (apiJobs) log(`  api pid ${apiJobs.pid} --role=jobs (the queue workers and the relay)`);
  const DIAG = ['tx', 'redis', 'unnest', 'prep', 'tx-redis', 'tx-redis-unnest', 'redis-prep'];
  const requester = await setUpRequester(api.url, [
    'bench-add-task',
    'bench-add-tasks',
    'bench-baseline-add-task',
    'bench-baseline-add-tasks',
    'bench-checkout',
    'bench-export',
    ...(opts.diagnose ? DIAG.map((d) => `bench-diag-${d}`) : []),
  ]);
  const poolSize = Number(opts.apiEnv.DATABASE_POOL_SIZE ?? 20);
  // The baseline serves only add_task and add_tasks.
  const needsBaseline = opts.suites.includes('add_task') || opts.suites.includes('add_tasks');
  const baseline = needsBaseline
    ? await startBaseline({
        dbUrl,
        poolSize,
        profileFile: profileFile('baseline'),
        redisUrl: opts.diagnose ? redisUrl : undefined,
      })
    : null;
  if (baseline) log(`  baseline pid ${baseline.pid} on ${baseline.url} (pg pool ${poolSize})`);

  // Workers for checkout and webhooks (distinct users, none of them the requester: workers cannot take
  // their own account's tasks); the export fixture's submissions come from the first 6.
  const workerCount = opts.suites.includes('checkout') || opts.suites.includes('webhooks') ? opts.workers : opts.suites.includes('export') ? 6 : 0;
  let workers = [];
  if (workerCount > 0) {
    const t0 = Date.now();
    workers = await signUpUsers(api.url, workerCount);
    log(`  signed up ${workerCount} workers in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
  const checkoutTarget = { url: api.url, liveKey: requester.liveKey, projectUuid: requester.projects['bench-checkout'].uuid, workers };
  const exportTarget = {
    url: api.url,
    liveKey: requester.liveKey,
    projectUuid: requester.projects['bench-export'].uuid,
    serverPid: api.pid,
    serverGroup: 'api',
    tasks: opts.exportTasks,
  };
  let exportFixture = null;
  const buildFixture = async () => {
    log(`\nexport fixture: ${fmt(opts.exportTasks)} complete tasks x 3 submissions, written with SQL…`);
    exportFixture = await buildExportFixture(dbUrl, {
      projectUuid: exportTarget.projectUuid,
      workerIds: workers.slice(0, 6).map((w) => w.userId),
      tasks: opts.exportTasks,
      prompt: FIXTURE_PROMPT,
    });
    log(
      `  ${fmt(exportFixture.tasks)} tasks, ${fmt(exportFixture.submissions)} submissions, ${fmt(exportFixture.boxes)} boxes in ` +
        `${exportFixture.seconds.toFixed(1)} s; invariant violations in the fixture: ${exportFixture.invariants.total}`,
    );
    if (exportFixture.invariants.total > 0) throw new Error(`export fixture breaks invariants: ${JSON.stringify(exportFixture.invariants.checks)}`);
  };

  const webhookTarget = {
    url: api.url,
    liveKey: requester.liveKey,
    token: requester.token,
    workers,
    tasks: opts.webhookTasks,
    rounds: opts.webhookRounds,
    warmupTasks: opts.webhookWarmup,
    drainTimeoutSeconds: opts.webhookDrain,
    control: opts.webhookControl,
    backlog: opts.webhookBacklog,
    redisUrl,
    redisPrefix: REDIS_PREFIX,
  };

  if (profiling && ['checkout', 'export', 'webhooks'].includes(opts.profile)) {
    if (opts.profile === 'export') await buildFixture();
    await profileApiOnly({ opts, api, apiJobs, checkoutTarget, exportTarget, webhookTarget, dbUrl, adminUrl, profileFile });
    return 0;
  }

  const p = requester.projects;
  const singleTargets = needsBaseline && {
    baseline: { url: baseline.url, server: 'baseline', projectUuid: p['bench-baseline-add-task'].uuid, headers: {} },
    ...(opts.diagnose
      ? Object.fromEntries(
          DIAG.map((d) => [
            `baseline+${d}`,
            {
              url: baseline.url,
              server: 'baseline',
              path: `/diag/${d}/api/v1/projects/add_task`,
              projectUuid: p[`bench-diag-${d}`].uuid,
              headers: {},
            },
          ]),
        )
      : {}),
    real: { url: api.url, server: 'api', projectUuid: p['bench-add-task'].uuid, headers: { apikey: requester.liveKey } },
  };
  const bulkTargets = needsBaseline && {
    baseline: { url: baseline.url, projectUuid: p['bench-baseline-add-tasks'].uuid, headers: {} },
    real: { url: api.url, projectUuid: p['bench-add-tasks'].uuid, headers: { apikey: requester.liveKey } },
  };

  if (profiling) {
    await profile({ opts, servers: { real: api, baseline }, targets: opts.profile === 'add_task' ? singleTargets : bulkTargets, profileFile });
    return 0;
  }

  const results = {
    command,
    date: started.toISOString(),
    commit: gitCommit(),
    machine: env,
    api: { LOG_LEVEL: 'warn', NODE_ENV: 'production', DATABASE_POOL_SIZE: poolSize, role: split ? 'http + jobs' : 'all', ...apiEnv },
    suites: {},
  };
  /** Processes a suite starts itself (the webhook receiver), measured as their own group. */
  const suitePids = {};
  const monitor = cpuMonitor({
    adminUrl,
    dbName: DB_NAME,
    pids: () => ({ api: api.pid, ...(apiJobs ? { jobs: apiJobs.pid } : {}), ...(baseline ? { baseline: baseline.pid } : {}), ...suitePids }),
  });
  const common = { adminUrl, dbUrl, log, monitor, maxForeignCores: opts.maxForeign, retries: opts.retries };
  if (opts.suites.includes('add_task')) {
    log(`\nadd_task: ${opts.connections} connections, ${opts.rounds} rounds x ${opts.duration} s per target (warm-up ${opts.warmup} s before each)`);
    results.suites.add_task = await runAddTask({
      ...common,
      targets: singleTargets,
      rounds: opts.rounds,
      duration: opts.duration,
      warmup: opts.warmup,
      connections: opts.connections,
    });
  }
  if (opts.suites.includes('add_tasks')) {
    log(`\nadd_tasks: ${opts.batches} batches of ${opts.batchSize} tasks, ${opts.bulkConnections} clients, ${opts.rounds} rounds per target (warm-up ${opts.bulkWarmup} batches)`);
    results.suites.add_tasks = await runAddTasks({
      ...common,
      targets: bulkTargets,
      rounds: opts.rounds,
      batches: opts.batches,
      batchSize: opts.batchSize,
      connections: opts.bulkConnections,
      warmupBatches: opts.bulkWarmup,
    });
  }
  if (opts.suites.includes('checkout')) {
    log(`\ncheckout: ${opts.workers} workers looping checkout -> ${thinking(opts.thinkMs)}submit, ${opts.rounds} rounds x ${opts.duration} s (warm-up ${opts.warmup} s before each)`);
    results.suites.checkout = await runCheckout({
      ...common,
      ...checkoutTarget,
      rounds: opts.rounds,
      duration: opts.duration,
      warmup: opts.warmup,
      thinkMs: opts.thinkMs,
      serverGroup: 'api',
    });
  }
  if (opts.suites.includes('export')) {
    await buildFixture();
    log(`\nexport: ${EXPORT_FORMATS.join(' and ')}, ${opts.exportWarmup} warm-up + ${opts.exportRuns} measured runs each`);
    results.suites.export = await runExport({
      ...common,
      ...exportTarget,
      dbUrl,
      runs: opts.exportRuns,
      warmupRuns: opts.exportWarmup,
    });
    results.suites.export.fixture = exportFixture;
  }
  if (opts.suites.includes('webhooks')) {
    log(
      `\nwebhooks: ${fmt(opts.webhookTasks)} tasks completed by ${opts.workers} workers (checkout -> submit) and delivered to a local receiver, ` +
        `${opts.webhookRounds} rounds (warm-up ${fmt(opts.webhookWarmup)} tasks, drain timeout ${opts.webhookDrain} s)`,
    );
    results.suites.webhooks = await runWebhooks({
      ...common,
      ...webhookTarget,
      registerPid: (name, pid) => (suitePids[name] = pid),
    });
  }
  results.finished = new Date().toISOString();

  await stopAll();
  const failures = report(results, command);
  results.failures = failures;
  // --diagnose runs do not replace latest.json (the figures of a normal run).
  const latest = opts.diagnose ? 'latest-diagnose.json' : 'latest.json';
  writeFileSync(join(RESULTS, latest), JSON.stringify(results, null, 2) + '\n');
  writeFileSync(join(RESULTS, `bench-${started.toISOString().replace(/[:.]/g, '-')}.json`), JSON.stringify(results, null, 2) + '\n');
  log(`\nwrote bench/results/${latest}`);
  if (failures.length > 0) {
    log(`\nINVALID RUN:\n  ${failures.join('\n  ')}`);
    return 1;
  }
  return 0;
}

/** Prints the summary tables; returns what makes the run invalid (non-2xx answers, row counts). */
function report(results, command) {
  const failures = [];
  log(`\n==== results  (${results.date}, ${results.machine.cpus} cores shared by PostgreSQL, server and load generator)`);
  log(`$ ${command}`);
  const a = results.suites.add_task;
  if (a) {
    log(`\nadd_task — autocannon, ${a.connections} connections, median of ${a.rounds} x ${a.duration} s per target`);
    log(
      table([
        ['target', 'req/s (median)', 'req/s per round', 'x baseline', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', 'rows in db / 201s', 'other cores max'],
        ...a.targets.map((n) => [
          n === 'real' ? 'real API' : n,
          fmt(a[n].rpsMedian),
          a[n].rps.join(' / '),
          a[n].ratio.toFixed(3),
          fmt(a[n].p50Median, 1),
          fmt(a[n].p99Median, 1),
          a[n].non2xx,
          a[n].errors,
          `${a.rows[n].inDatabase} / ${a.rows[n].counted201}`,
          maxOf(a[n].foreignCores),
        ]),
      ]),
    );
    log('("other cores": CPU used by programs outside this benchmark during a measured run; runs above --max-foreign were measured again)');
    if (a.targets.every((n) => a[n].cpuUsPerRequest)) {
      log('CPU per request, µs (median of the runs; all processes of the benchmark share the 2 cores):');
      log(
        table([
          ['target', 'server', 'postgres', 'redis', 'autocannon', 'total'],
          ...a.targets.map((n) => {
            const c = a[n].cpuUsPerRequest;
            return [n === 'real' ? 'real API' : n, c.server, c.postgres, c.redis, c.driver, c.total];
          }),
        ]),
      );
    }
    log(`ratio real/baseline: ${a.ratio.toFixed(3)}  (per round ${a.ratiosPerRound.map((r) => r.toFixed(3)).join(' / ')})  target >= ${TARGET_RATIO}: ${yesNo(a.ratio >= TARGET_RATIO)}`);
    for (const n of a.targets) {
      if (a[n].non2xx > 0 || a[n].errors > 0) failures.push(`add_task ${n}: ${a[n].non2xx} non-2xx, ${a[n].errors} errors (${JSON.stringify(a[n].statusCodes)})`);
      if (!a.rows[n].ok) failures.push(`add_task ${n}: ${a.rows[n].inDatabase} rows for ${a.rows[n].counted201} answers 201`);
    }
    a.targetMet = a.ratio >= TARGET_RATIO;
  }
  const b = results.suites.add_tasks;
  if (b) {
    log(`\nadd_tasks — ${b.batches} batches x ${b.batchSize} tasks, ${b.connections} concurrent clients, median of ${b.rounds} rounds per target`);
    log(
      table([
        ['target', 'tasks/s (median)', 'tasks/s per round', 'batch p50 ms', 'batch max ms', 'failed', 'rows in db / tasks sent', 'other cores max'],
        ...['baseline', 'real'].map((n) => [
          n === 'real' ? 'real API' : 'baseline',
          fmt(b[n].tasksPerSecondMedian),
          b[n].tasksPerSecond.join(' / '),
          fmt(b[n].batchP50Median),
          fmt(b[n].batchMax),
          b[n].failed,
          `${b.rows[n].inDatabase} / ${b.rows[n].sentTasks201}`,
          maxOf(b[n].foreignCores),
        ]),
      ]),
    );
    log(
      `real add_tasks: ${fmt(b.real.tasksPerSecondMedian)} tasks/s, target >= ${fmt(TARGET_BULK_TASKS_PER_SECOND)}: ${yesNo(b.real.tasksPerSecondMedian >= TARGET_BULK_TASKS_PER_SECOND)}` +
        `  (ratio real/baseline ${b.ratio.toFixed(3)})`,
    );
    for (const n of ['baseline', 'real']) {
      if (b[n].failed > 0) failures.push(`add_tasks ${n}: ${b[n].failed} failed batches, first: ${b[n].firstFailure}`);
      if (!b.rows[n].ok) failures.push(`add_tasks ${n}: ${b.rows[n].inDatabase} rows for ${b.rows[n].sentTasks201} tasks answered 201`);
    }
    b.targetMet = b.real.tasksPerSecondMedian >= TARGET_BULK_TASKS_PER_SECOND;
  }
  const c = results.suites.checkout;
  if (c) {
    log(`\ncheckout — ${c.workers} workers (distinct users) looping checkout -> ${thinking(c.thinkMs)}submit over keep-alive connections, median of ${c.rounds} x ${c.duration} s`);
    log(
      table([
        ['checkouts/s (median)', 'checkouts/s per round', 'submits/s', 'checkout p50 ms', 'checkout p99 ms', 'p99 per round', 'submit p50 ms', 'submit p99 ms', 'no task', 'errors', 'other cores max'],
        [
          fmt(c.checkoutsPerSecondMedian),
          c.checkoutsPerSecond.join(' / '),
          fmt(c.submitsPerSecondMedian),
          fmt(c.checkoutP50Median, 1),
          fmt(c.checkoutP99Median, 1),
          c.checkoutP99.join(' / '),
          fmt(c.submitP50Median, 1),
          fmt(c.submitP99Median, 1),
          c.noTask,
          c.errors,
          maxOf(c.foreignCores),
        ],
      ]),
    );
    if (c.cpuUsPerCycle) {
      const u = c.cpuUsPerCycle;
      log(`CPU per checkout + submit cycle, µs: server ${u.server}, postgres ${u.postgres}, redis ${u.redis}, driver ${u.driver} (${u.driverCores} cores), total ${u.total}`);
    }
    log(
      `rows: ${c.rows.checkouts} checkouts / ${c.rows.checkout201} answered 201, ${c.rows.submissions} submissions / ${c.rows.submit201} answered 201, ` +
        `${c.rows.active} leases still active, ${c.rows.completed} of ${c.rows.tasks} tasks complete`,
    );
    log(`invariant violations: ${c.invariants.total}${c.invariants.total ? '' : ' (every check 0)'}`);
    for (const check of c.invariants.checks) log(`  ${String(check.violations).padStart(6)}  ${check.name}`);
    const rateMet = c.checkoutsPerSecondMedian >= TARGET_CHECKOUTS_PER_SECOND;
    const p99Met = c.checkoutP99Median < TARGET_CHECKOUT_P99_MS;
    log(`checkouts/s >= ${fmt(TARGET_CHECKOUTS_PER_SECOND)}: ${yesNo(rateMet)}   checkout p99 < ${TARGET_CHECKOUT_P99_MS} ms: ${yesNo(p99Met)}   zero invariant violations: ${yesNo(c.invariants.total === 0)}`);
    if (c.errors > 0) failures.push(`checkout: ${c.errors} errors (${JSON.stringify(c.statusCodes)}), first: ${c.errorSamples[0]}`);
    if (!c.rows.ok) failures.push(`checkout: rows do not match the answers (${JSON.stringify(c.rows)})`);
    if (c.invariants.total > 0) failures.push(`checkout: ${c.invariants.total} invariant violations`);
    c.targetMet = { rate: rateMet, p99: p99Met, invariants: c.invariants.total === 0 };
  }
  const e = results.suites.export;
  if (e) {
    log(`\nexport — GET /api/v1/projects/:uuid/annotations of ${fmt(e.tasks)} complete tasks (3 submissions each), streamed to the last byte; median of ${e.runs} runs after ${e.warmupRuns} warm-up`);
    log(
      table([
        ['format', 'seconds (median)', 'seconds per run', 'first byte ms', 'MB', 'entries', 'boxes', 'RSS growth MB (median)', 'per run', 'max incl. warm-up', 'server CPU s', 'postgres CPU s', 'driver CPU s', 'failed', 'other cores max'],
        ...EXPORT_FORMATS.map((f) => [
          f,
          fmt(e[f].secondsMedian, 2),
          e[f].seconds.map((x) => x.toFixed(2)).join(' / '),
          fmt(e[f].ttfbMedian * 1000),
          fmt(e[f].bytes / 1e6, 1),
          fmt(e[f].entries),
          fmt(e[f].boxes),
          fmt(e[f].rssGrowthMBMedian, 1),
          e[f].rssGrowthMB.join(' / '),
          fmt(e[f].rssGrowthMBMax, 1),
          fmt(e[f].cpuSeconds.server, 2),
          fmt(e[f].cpuSeconds.postgres, 2),
          fmt(e[f].cpuSeconds.driver, 2),
          e[f].failed,
          maxOf(e[f].foreignCores),
        ]),
      ]),
    );
    e.targetMet = {};
    for (const f of EXPORT_FORMATS) {
      const timeMet = e[f].secondsMedian < TARGET_EXPORT_SECONDS;
      const rssMet = e[f].rssGrowthMBMax < TARGET_EXPORT_RSS_MB;
      log(`${f}: under ${TARGET_EXPORT_SECONDS} s: ${yesNo(timeMet)}   peak RSS growth under ${TARGET_EXPORT_RSS_MB} MB (every run): ${yesNo(rssMet)}`);
      if (e[f].failed > 0) failures.push(`export ${f}: ${e[f].failed} failed runs, first: ${e[f].firstFailure}`);
      e.targetMet[f] = { time: timeMet, rss: rssMet };
    }
  }
  const w = results.suites.webhooks;
  if (w) {
    log(
      `\nwebhooks — ${fmt(w.tasksPerRound)} tasks per round completed by ${w.workers} workers (checkout -> submit over HTTP), each event delivered by ` +
        `the API's webhook-delivery queue to a local receiver; median of ${w.rounds} rounds after a warm-up of ${fmt(w.warmupTasks)} tasks`,
    );
    log(
      table([
        ['deliveries/s (median)', 'per round', 'steady /s', 'completions/s', 'per round', 'latency p50 ms', 'p99 ms', 'p99 per round', 'max ms', 'lost', 'duplicated', 'not-200', 'errors', 'other cores max'],
        [
          fmt(w.deliveriesPerSecondMedian),
          w.deliveriesPerSecond.join(' / '),
          fmt(w.steadyPerSecondMedian),
          fmt(w.completionsPerSecondMedian),
          w.completionsPerSecond.join(' / '),
          fmt(w.latencyP50Median),
          fmt(w.latencyP99Median),
          w.latencyP99.join(' / '),
          fmt(w.latencyMax),
          w.lost,
          w.duplicated,
          w.not200Attempts,
          w.errors,
          maxOf(w.foreignCores),
        ],
      ]),
    );
    log(
      '(deliveries/s: events delivered / (last first arrival - first completion); steady: the middle 80 % of arrivals over the time they span; ' +
        'latency: first arrival at the receiver - the task\'s completed_at)',
    );
    if (w.backlog) {
      log(
        `backlog (--webhook-backlog: deliveries held until every task was complete, then released): ${fmt(w.backlogPerSecondMedian)} deliveries/s median ` +
          `(${w.backlogPerSecond.join(' / ')}); latency above includes the hold, so it is no target figure in this mode`,
      );
    }
    if (w.cpuUsPerEvent) {
      const u = w.cpuUsPerEvent;
      log(
        `CPU per completed + delivered task, µs: api ${u.api}${u.jobs ? ` + jobs ${u.jobs}` : ''}, postgres ${u.postgres}, redis ${u.redis}, ` +
          `driver ${u.driver}, receiver ${u.receiver}, total ${u.total}`,
      );
    }
    if (w.walPerTask) {
      const v = w.walPerTask;
      log(`WAL per completed + delivered task (pg_stat_wal, median): ${v.syncs.toFixed(2)} syncs, ${v.records.toFixed(1)} records, ${(v.bytes / 1024).toFixed(1)} KiB`);
    }
    if (w.messagesPerTask) log(`messages per completed + delivered task (median; the same on any host): ${formatPerTask(w.messagesPerTask)}`);
    if (w.control) {
      const c = w.control;
      const u = c.cpuUsPerTask;
      log(
        `control, the same ${fmt(c.tasks)} completions without a callback_url: ${fmt(c.completionsPerSecond)} completions/s` +
          (u ? `; CPU per completed task, µs: api ${u.api}${u.jobs ? ` + jobs ${u.jobs}` : ''}, postgres ${u.postgres}, redis ${u.redis}, driver ${u.driver}, total ${u.total}` : '') +
          (c.cpu ? ` (other cores ${c.cpu.foreignCores})` : ''),
      );
      if (c.messages) log(`messages per completed task in the control: ${formatPerTask(c.messages)}`);
      // The same host speed is in both figures, so their ratio compares webhook changes across hosts
      // (docs/performance.md, "sixth session"): 1.00 would mean the webhooks cost the completions nothing.
      c.deliveriesOverControl = Number((w.deliveriesPerSecondMedian / c.completionsPerSecond).toFixed(3));
      log(`deliveries/s over the control's completions/s: ${c.deliveriesOverControl.toFixed(2)} (the share of the cores the webhooks leave to the completions)`);
      if (c.events !== 0 || c.completions !== c.tasks) failures.push(`webhooks control: ${c.completions} of ${c.tasks} tasks complete, ${c.events} events (0 expected)`);
    }
    log(
      `duplicates: ${w.duplicated} extra arrivals of ${w.duplicatedEvents} events, ${w.duplicatesExplainedByRetries} of them with a retry in the attempt log; ` +
        `events retried ${w.retriedEvents}; arrivals refused by the receiver ${w.receiverRefused}; unknown ids ${w.unknownIds}`,
    );
    log(`delivery queue (sampled every 100 ms): waiting at most ${w.queueWaitingMax} jobs; active on average ${w.queueActiveMeanMedian} (WEBHOOK_CONCURRENCY ${results.api.WEBHOOK_CONCURRENCY ?? `${apiDefault('WEBHOOK_CONCURRENCY')}, the default`})`);
    log(`signatures verified with standardwebhooks: ${w.signaturesOk} of ${w.signaturesChecked} sampled${w.signatureFailures.length ? ` (first failure: ${w.signatureFailures[0]})` : ''}`);
    log(`invariant violations: ${w.invariants.total}${w.invariants.total ? '' : ' (every check 0)'}`);
    const rateMet = w.deliveriesPerSecondMedian >= TARGET_DELIVERIES_PER_SECOND;
    const p99Met = w.latencyP99Median < TARGET_DELIVERY_P99_MS;
    log(
      `deliveries/s >= ${fmt(TARGET_DELIVERIES_PER_SECOND)}: ${yesNo(rateMet)}   p99 completion -> delivery < ${fmt(TARGET_DELIVERY_P99_MS)} ms: ${yesNo(p99Met)}   ` +
        `0 lost: ${yesNo(w.lost === 0)}   0 duplicated beyond retries: ${yesNo(w.duplicatedEvents === w.duplicatesExplainedByRetries)}`,
    );
    if (w.lost > 0) failures.push(`webhooks: ${w.lost} events lost (no arrival within ${w.drainTimeoutSeconds} s), e.g. ${JSON.stringify(w.runs.flatMap((r) => r.lostSample)[0] ?? w.warmup?.lostSample?.[0])}`);
    if (w.not200Attempts > 0) failures.push(`webhooks: ${w.not200Attempts} delivery attempts not answered 200, e.g. ${w.runs.find((r) => r.not200Example)?.not200Example ?? w.warmup?.not200Example}`);
    if (w.receiverRefused > 0) failures.push(`webhooks: the receiver refused ${w.receiverRefused} requests (${JSON.stringify(w.runs.flatMap((r) => r.receiverRefusedSample)[0])})`);
    if (w.unknownIds > 0) failures.push(`webhooks: ${w.unknownIds} webhook-ids that are no event of their round`);
    if (w.signaturesOk !== w.signaturesChecked || w.signaturesChecked === 0) failures.push(`webhooks: ${w.signaturesOk} of ${w.signaturesChecked} sampled signatures verify`);
    if (w.errors > 0) failures.push(`webhooks: ${w.errors} checkout/submit errors, first: ${w.errorSamples[0]}`);
    if (w.invariants.total > 0) failures.push(`webhooks: ${w.invariants.total} invariant violations`);
    for (const r of w.runs) {
      if (r.completions !== r.tasks || r.events !== r.tasks) failures.push(`webhooks ${r.tag}: ${r.completions} tasks complete and ${r.events} events for ${r.tasks} tasks`);
    }
    w.targetMet = { rate: rateMet, p99: p99Met, lost: w.lost === 0, duplicates: w.duplicatedEvents === w.duplicatesExplainedByRetries };
  }
  return failures;
}

/**
 * --profile=checkout|export|webhooks: the API alone (no baseline), one warm-up then one profiled run.
 * With --api-roles=split both API processes are profiled (profile-real-* and profile-jobs-*).
 */
async function profileApiOnly({ opts, api, apiJobs, checkoutTarget, exportTarget, webhookTarget, dbUrl, adminUrl, profileFile }) {
  const file = profileFile('real');
  const targets = [[api, file], ...(apiJobs ? [[apiJobs, profileFile('jobs')]] : [])];
  const signalAll = () => {
    for (const [server] of targets) server.child.kill('SIGWINCH');
  };
  const written = async () => {
    for (const [, f] of targets) {
      for (let i = 0; i < 100 && !existsSync(f + '.done'); i++) await sleep(100);
      rmSync(f + '.done', { force: true });
    }
  };
  const profiled = async (work) => {
    signalAll();
    const r = await work();
    signalAll();
    await written();
    return r;
  };
  let requests = 0;
  if (opts.profile === 'webhooks') {
    log(`\nprofiling the API during one webhooks round of ${fmt(webhookTarget.tasks)} tasks (after a warm-up of ${fmt(webhookTarget.warmupTasks)})…`);
    const r = await runWebhooks({
      ...webhookTarget,
      dbUrl,
      adminUrl,
      log,
      maxForeignCores: Infinity,
      retries: 0,
      profileStart: signalAll,
      profileStop: async () => {
        signalAll();
        await written();
      },
    });
    requests = r.tasksPerRound;
    log(`  times below are per completed and delivered task (lost ${r.lost}, not-200 ${r.not200Attempts}, errors ${r.errors})`);
  } else if (opts.profile === 'checkout') {
    const { addTasksInBulk } = await import('../bench/lib/api-setup.mjs');
    const slots = 3000 * 1.5 * ((opts.warmup || 3) + opts.duration);
    await addTasksInBulk(api.url, { liveKey: checkoutTarget.liveKey, projectUuid: checkoutTarget.projectUuid, count: Math.ceil(slots / 3000) * 1000, requiredSubmissions: 3 });
    const load = checkoutLoad(checkoutTarget);
    log(`\nprofiling the API under checkout + submit load (${checkoutTarget.workers.length} workers)…`);
    load.start();
    await sleep((opts.warmup || 3) * 1000);
    const r = await profiled(() => load.window(opts.duration));
    await load.stop();
    await load.close();
    requests = r.checkouts;
    log(`  ${r.checkoutsPerSecond.toFixed(0)} checkouts/s while profiled, p99 ${r.checkoutP99.toFixed(1)} ms, errors ${r.errors}; times below are per checkout + submit cycle`);
  } else {
    log('\nprofiling the API during one export of each format (after one warm-up each)…');
    for (const format of EXPORT_FORMATS) await exportOnce({ ...exportTarget, format });
    await profiled(async () => {
      for (const format of EXPORT_FORMATS) {
        const r = await exportOnce({ ...exportTarget, format });
        log(`  ${format}: ${r.seconds.toFixed(2)} s, ${(r.bytes / 1e6).toFixed(1)} MB, RSS +${((r.rss?.growthKiB ?? 0) * 1.024e-3).toFixed(1)} MB`);
      }
    });
    log('  times below are ms in total over both exports');
  }
  for (const [server, f] of targets) {
    log(`  profile${targets.length > 1 ? ` of ${server.name}` : ''}: ${f.slice(ROOT.length + 1)}`);
    const summary = summarizeProfile(f, { requests, top: 40 });
    printProfileSummary(summary, (line) => log('  ' + line));
    writeFileSync(f.replace(/\.cpuprofile$/, '.summary.json'), JSON.stringify(summary, null, 2) + '\n');
  }
}

/** --profile: one warm-up and one profiled run per server (each alone), then the top frames of each. */
async function profile({ opts, servers, targets, profileFile }) {
  for (const name of ['baseline', 'real']) {
    const server = servers[name];
    const t = targets[name];
    const run = async (duration) => {
      if (opts.profile === 'add_task') {
        return autocannonRound({
          url: t.url + '/api/v1/projects/add_task',
          method: 'POST',
          headers: { 'content-type': 'application/json', ...t.headers },
          body: JSON.stringify({ task: { project_uuid: t.projectUuid, substitutions: { object: 'car' } } }),
          connections: opts.connections,
          duration,
        });
      }
      const tasks = Array.from({ length: opts.batchSize }, () => ({ substitutions: { object: 'car' } }));
      return autocannonRound({
        url: t.url + '/api/v1/projects/add_tasks',
        method: 'POST',
        headers: { 'content-type': 'application/json', ...t.headers },
        body: JSON.stringify({ project_uuid: t.projectUuid, tasks }),
        connections: opts.bulkConnections,
        duration,
      });
    };
    log(`\nprofiling ${name} under ${opts.profile} load…`);
    await run(opts.warmup || 3);
    await sleep(500);
    server.child.kill('SIGWINCH');
    const r = await run(opts.duration);
    server.child.kill('SIGWINCH');
    const file = profileFile(name);
    for (let i = 0; i < 100 && !existsSync(file + '.done'); i++) await sleep(100);
    rmSync(file + '.done', { force: true });
    log(`  ${name}: ${r.rps.toFixed(0)} req/s while profiled (non-2xx ${r.non2xx}); profile: ${file.slice(ROOT.length + 1)}`);
    const summary = summarizeProfile(file, { requests: r.ok, top: 40 });
    printProfileSummary(summary, (line) => log('  ' + line));
    writeFileSync(file.replace(/\.cpuprofile$/, '.summary.json'), JSON.stringify({ rps: r.rps, ...summary }, null, 2) + '\n');
    await sleep(1000);
  }
}

// ---------------------------------------------------------------------------------- run and clean up
/** A run beside another (see the top) drops its own database at the end; crowdbox_bench stays for a look. */
async function dropIsolatedDatabase() {
  if (DB_NAME === 'crowdbox_bench') return;
  const adminUrl = process.env.BENCH_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  await withClient(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`)).catch(() => {});
}

process.on('exit', killAllSync);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, async () => {
    log(`\n${signal}: stopping servers…`);
    await stopAll();
    rmSync(API_DIST, { recursive: true, force: true });
    await dropIsolatedDatabase();
    process.exit(130);
  });
}

let code = 1;
try {
  code = await main();
} catch (error) {
  console.error(`\nbench failed: ${error instanceof Error ? error.stack : error}`);
} finally {
  await stopAll();
  rmSync(API_DIST, { recursive: true, force: true });
  await clearRedisPrefix(process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379').catch(() => {});
  await dropIsolatedDatabase();
}
process.exit(code);
