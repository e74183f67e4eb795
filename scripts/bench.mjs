// `npm run bench`: the real stack (dist/api on PostgreSQL + Redis) under load. add_task and add_tasks
// are each measured next to a minimal Fastify + pg baseline in the same run (bench/baseline-server.mjs);
// checkout (checkout + submit cycles of N simulated workers) and export (a project's annotations,
// JSON and COCO) against their absolute targets. Prints medians of several rounds, and writes
// bench/results/latest.json (gitignored). Benchmarks are not tests: it exits non-zero only when the
// run is invalid (a non-2xx answer, a row count that does not match, an invariant violated, an export
// that does not parse), never for a missed target. See docs/performance.md.
//
//   npm run bench                        build, then every suite (about 10 minutes)
//   npm run bench -- --no-build          use the existing dist/api
//   npm run bench -- --suite=add_task    some suites (add_task,add_tasks,checkout,export)
//   npm run bench -- --rounds=5 --duration=10 --warmup=3 --connections=32
//   npm run bench -- --workers=200       checkout: simulated workers (distinct users), each looping
//                                        checkout -> submit; --rounds, --duration, --warmup apply
//   npm run bench -- --export-tasks=100000 --export-runs=3 --export-warmup=1
//   npm run bench -- --max-foreign=0.25 --retries=2   a run during which other programs used more than
//                                              0.25 cores is measured again, at most twice (the machine is shared)
//   npm run bench -- --batches=30 --batch-size=1000 --bulk-connections=4
//   npm run bench -- --api-env=LOG_LEVEL=info   extra env for the API child (repeatable)
//   npm run bench -- --profile[=add_tasks]      CPU-profile both servers under add_task (or add_tasks) load
//                                              instead of measuring; writes bench/results/*.cpuprofile
//   npm run bench -- --profile=checkout|export  CPU-profile the API alone under checkout + submit load
//                                              (times per cycle) or during one export of each format
//   npm run bench -- --diagnose                 add_task only, with extra baseline variants that add parts
//                                              of the real API's work (BEGIN/COMMIT, Redis, unnest INSERT)
//                                              or a prepared INSERT; see bench/baseline-server.mjs
//
// Env: BENCH_DATABASE_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres; the run drops and
// creates the database crowdbox_bench there), BENCH_REDIS_URL (default redis://127.0.0.1:6379).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { runAddTask } from '../bench/add-task.bench.mjs';
import { runAddTasks } from '../bench/add-tasks.bench.mjs';
import { checkoutLoad, runCheckout } from '../bench/checkout.bench.mjs';
import { EXPORT_FORMATS, buildExportFixture, exportOnce, runExport } from '../bench/export.bench.mjs';
import { setUpRequester, signUpUsers } from '../bench/lib/api-setup.mjs';
import { autocannonRound } from '../bench/lib/autocannon-round.mjs';
import { cpuMonitor } from '../bench/lib/cpu-monitor.mjs';
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
const API_DIST = join(RESULTS, 'api-dist');
const DB_NAME = 'crowdbox_bench';
const TARGET_RATIO = 0.8;
const TARGET_BULK_TASKS_PER_SECOND = 20_000;
const TARGET_CHECKOUTS_PER_SECOND = 1_000;
const TARGET_CHECKOUT_P99_MS = 50;
const TARGET_EXPORT_SECONDS = 3;
const TARGET_EXPORT_RSS_MB = 100;
const SUITES = ['add_task', 'add_tasks', 'checkout', 'export'];
/** The API's Redis keys in a run (REDIS_PREFIX); cleared before and after, see clearRedisPrefix. */
const REDIS_PREFIX = 'cbbench';
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
    exportTasks: 100_000,
    exportRuns: 3,
    exportWarmup: 1,
    apiEnv: {},
    profile: null,
    diagnose: false,
    maxForeign: 0.25,
    retries: 2,
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
      case '--export-tasks': opts.exportTasks = num(); break;
      case '--export-runs': opts.exportRuns = num(); break;
      case '--export-warmup': opts.exportWarmup = value === '0' ? 0 : num(); break;
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

async function startApi({ dbUrl, redisUrl, apiEnv, profileFile }) {
  const main = join(API_DIST, 'apps/api/src/main.js');
  const port = await freePort();
  const args = ['-r', 'tsconfig-paths/register'];
  if (profileFile) args.unshift('-r', join(ROOT, 'bench/lib/cpu-profile.cjs'));
  args.push(main, '--role=all');
  return startServer({
    name: 'api',
    cwd: ROOT,
    port,
    args,
    logFile: join(RESULTS, 'api.log'),
    env: childEnv({
      TS_NODE_PROJECT: 'tsconfig.base.json',
      TS_NODE_BASEURL: API_DIST,
      DATABASE_URL: dbUrl,
      REDIS_URL: redisUrl,
      REDIS_PREFIX: 'cbbench',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_REQUESTS: '100000000',
      NODE_ENV: 'production',
      ...(profileFile ? { BENCH_CPU_PROFILE: profileFile } : {}),
      ...apiEnv,
    }),
  });
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
    logFile: join(RESULTS, 'baseline.log'),
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
  const dbUrl = databaseUrl(adminUrl, DB_NAME);
  const started = new Date();
  mkdirSync(RESULTS, { recursive: true });

  log(`$ ${command}`);
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
  if (profiling) for (const n of ['real', 'baseline']) rmSync(profileFile(n) + '.done', { force: true });

  log('starting the API (runs migrations)…');
  const api = await startApi({ dbUrl, redisUrl, apiEnv: opts.apiEnv, profileFile: profileFile('real') });
  log(`  api pid ${api.pid} on ${api.url}`);
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

  // Workers for checkout (distinct users, none of them the requester: workers cannot take their own
  // account's tasks); the export fixture's submissions come from the first 6.
  const workerCount = opts.suites.includes('checkout') ? opts.workers : opts.suites.includes('export') ? 6 : 0;
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

  if (profiling && (opts.profile === 'checkout' || opts.profile === 'export')) {
    if (opts.profile === 'export') await buildFixture();
    await profileApiOnly({ opts, api, checkoutTarget, exportTarget, profileFile });
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
    api: { LOG_LEVEL: 'warn', NODE_ENV: 'production', DATABASE_POOL_SIZE: poolSize, role: 'all', ...opts.apiEnv },
    suites: {},
  };
  const monitor = cpuMonitor({ adminUrl, dbName: DB_NAME, pids: () => ({ api: api.pid, ...(baseline ? { baseline: baseline.pid } : {}) }) });
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
    log(`\ncheckout: ${opts.workers} workers looping checkout -> submit, ${opts.rounds} rounds x ${opts.duration} s (warm-up ${opts.warmup} s before each)`);
    results.suites.checkout = await runCheckout({
      ...common,
      ...checkoutTarget,
      rounds: opts.rounds,
      duration: opts.duration,
      warmup: opts.warmup,
      serverGroup: 'api',
    });
  }
  if (opts.suites.includes('export')) {
    await buildFixture();
    log(`\nexport: ${EXPORT_FORMATS.join(' and ')}, ${opts.exportWarmup} warm-up + ${opts.exportRuns} measured runs each`);
    results.suites.export = await runExport({
      ...common,
      ...exportTarget,
      runs: opts.exportRuns,
      warmupRuns: opts.exportWarmup,
    });
    results.suites.export.fixture = exportFixture;
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
    log(`\ncheckout — ${c.workers} workers (distinct users) looping checkout -> submit over keep-alive connections, median of ${c.rounds} x ${c.duration} s`);
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
  return failures;
}

/** --profile=checkout|export: the API alone (no baseline), one warm-up then one profiled run. */
async function profileApiOnly({ opts, api, checkoutTarget, exportTarget, profileFile }) {
  const file = profileFile('real');
  const profiled = async (work) => {
    api.child.kill('SIGWINCH');
    const r = await work();
    api.child.kill('SIGWINCH');
    for (let i = 0; i < 100 && !existsSync(file + '.done'); i++) await sleep(100);
    rmSync(file + '.done', { force: true });
    return r;
  };
  let requests = 0;
  if (opts.profile === 'checkout') {
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
  log(`  profile: ${file.slice(ROOT.length + 1)}`);
  const summary = summarizeProfile(file, { requests, top: 40 });
  printProfileSummary(summary, (line) => log('  ' + line));
  writeFileSync(file.replace(/\.cpuprofile$/, '.summary.json'), JSON.stringify(summary, null, 2) + '\n');
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
process.on('exit', killAllSync);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, async () => {
    log(`\n${signal}: stopping servers…`);
    await stopAll();
    rmSync(API_DIST, { recursive: true, force: true });
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
}
process.exit(code);
