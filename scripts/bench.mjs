// `npm run bench`: throughput of the requester API's add_task and add_tasks against the real stack
// (dist/api on PostgreSQL + Redis), each next to a minimal Fastify + pg baseline measured in the same
// run (bench/baseline-server.mjs). Prints medians of several rounds and the ratio real/baseline, and
// writes bench/results/latest.json (gitignored). Benchmarks are not tests: it exits non-zero only when
// the run is invalid (a non-2xx answer, a row count that does not match), never for a missed target.
// See docs/performance.md.
//
//   npm run bench                        build, then both suites (a few minutes)
//   npm run bench -- --no-build          use the existing dist/api
//   npm run bench -- --suite=add_task    one suite (add_task | add_tasks)
//   npm run bench -- --rounds=5 --duration=10 --warmup=3 --connections=32
//   npm run bench -- --max-foreign=0.25 --retries=2   a run during which other programs used more than
//                                              0.25 cores is measured again, at most twice (the machine is shared)
//   npm run bench -- --batches=30 --batch-size=1000 --bulk-connections=4
//   npm run bench -- --api-env=LOG_LEVEL=info   extra env for the API child (repeatable)
//   npm run bench -- --profile[=add_tasks]      CPU-profile both servers under add_task (or add_tasks) load
//                                              instead of measuring; writes bench/results/*.cpuprofile
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
import { runAddTask } from '../bench/add-task.bench.mjs';
import { runAddTasks } from '../bench/add-tasks.bench.mjs';
import { setUpRequester } from '../bench/lib/api-setup.mjs';
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

// ---------------------------------------------------------------------------------------------- args
function parseArgs(argv) {
  const opts = {
    build: true,
    suites: ['add_task', 'add_tasks'],
    rounds: 5,
    duration: 10,
    warmup: 3,
    connections: 32,
    batches: 30,
    batchSize: 1000,
    bulkConnections: 4,
    bulkWarmup: 4,
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
  for (const s of opts.suites) if (!['add_task', 'add_tasks'].includes(s)) throw new Error(`unknown suite ${s}`);
  if (opts.profile && !['add_task', 'add_tasks'].includes(opts.profile)) throw new Error(`unknown profile suite ${opts.profile}`);
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
    ...(opts.diagnose ? DIAG.map((d) => `bench-diag-${d}`) : []),
  ]);
  const poolSize = Number(opts.apiEnv.DATABASE_POOL_SIZE ?? 20);
  const baseline = await startBaseline({
    dbUrl,
    poolSize,
    profileFile: profileFile('baseline'),
    redisUrl: opts.diagnose ? redisUrl : undefined,
  });
  log(`  baseline pid ${baseline.pid} on ${baseline.url} (pg pool ${poolSize})`);

  const p = requester.projects;
  const singleTargets = {
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
  const bulkTargets = {
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
  const monitor = cpuMonitor({ adminUrl, dbName: DB_NAME, pids: () => ({ api: api.pid, baseline: baseline.pid }) });
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
  return failures;
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
}
process.exit(code);
