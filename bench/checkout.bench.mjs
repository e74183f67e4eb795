// Checkout + submit cycles: N simulated workers (N distinct signed-up users), each looping
// POST /api/work/checkouts -> POST /api/work/checkouts/:id/submit through HTTP against the real API.
// The driver is undici's Pool (keep-alive, one connection per worker), in the driver process, so its
// CPU is measured like autocannon's in the other suites. The workers run without pause through a
// round (warm-up, then the measured window); only requests that complete inside the window count.
// With --think-ms each worker holds its lease that long before submitting, so the offered load can be
// set below the server's capacity, to see its latency when it is not saturated.
// Before each round the project is topped up with tasks (add_tasks, outside the measured window) so
// that the workers never run out. After the last round the invariants are counted with SQL.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import { addTasksInBulk } from './lib/api-setup.mjs';
import { checkpoint, withClient } from './lib/db.mjs';
import { countInvariantViolations } from './lib/invariants.mjs';
import { median, percentile } from './lib/stats.mjs';
import { cycleTotals, workerCycle } from './lib/worker-cycle.mjs';

const REQUIRED_SUBMISSIONS = 3;
/** Slots assumed to be used per second when topping up (the larger of this and the fastest round so far, x 1.5). */
const ASSUMED_RATE = 2000;

/**
 * The simulated workers. load.start() sets them running; load.window(seconds) measures one window
 * while they run; load.stop() lets every worker finish its cycle (so no lease stays active) and stops.
 * Counts every answer since creation in load.totals (for the row checks).
 */
export function checkoutLoad({ url, projectUuid, workers, thinkMs = 0 }) {
  const pool = new Pool(url, { connections: workers.length, pipelining: 1, keepAliveTimeout: 60_000, keepAliveMaxTimeout: 600_000 });
  const checkoutBody = JSON.stringify({ project_uuid: projectUuid });
  const totals = cycleTotals();
  let win = null; // the window being measured
  let stopping = false;
  let loops = [];
  const inWindow = (t) => win !== null && t >= win.start && win.end === null;

  async function loop(worker) {
    while (!stopping) {
      const c = await workerCycle(pool, worker, checkoutBody, totals, thinkMs);
      if (c.error && win) win.errors++;
      if (c.leased && inWindow(c.checkoutAt)) {
        win.checkouts++;
        win.checkoutLatencies.push(c.checkoutMs);
      }
      if (c.noTask && inWindow(c.checkoutAt)) win.noTask++;
      if (c.submitted && inWindow(c.submitAt)) {
        win.submits++;
        win.submitLatencies.push(c.submitMs);
      }
      if (!c.leased) await sleep(10); // nothing to do (or an error): do not spin
    }
  }

  return {
    totals,
    start() {
      stopping = false;
      loops = workers.map((w) => loop(w));
    },
    /** Measures one window of `seconds` while the workers run; `monitor` as in the other suites. */
    async window(seconds, monitor) {
      const before = await monitor?.start();
      win = { start: performance.now(), end: null, checkouts: 0, submits: 0, noTask: 0, errors: 0, checkoutLatencies: [], submitLatencies: [] };
      await sleep(seconds * 1000);
      win.end = performance.now();
      const w = win;
      win = null;
      const cpu = (await monitor?.stop(before)) ?? null;
      const elapsed = (w.end - w.start) / 1000;
      const co = Float64Array.from(w.checkoutLatencies).sort();
      const su = Float64Array.from(w.submitLatencies).sort();
      return {
        seconds: elapsed,
        checkouts: w.checkouts,
        submits: w.submits,
        checkoutsPerSecond: w.checkouts / elapsed,
        submitsPerSecond: w.submits / elapsed,
        checkoutP50: percentile(co, 50),
        checkoutP99: percentile(co, 99),
        checkoutMax: co[co.length - 1] ?? NaN,
        submitP50: percentile(su, 50),
        submitP99: percentile(su, 99),
        noTask: w.noTask,
        errors: w.errors,
        cpu,
      };
    },
    async stop() {
      stopping = true;
      await Promise.all(loops);
      loops = [];
    },
    close: () => pool.close(),
  };
}

/** Free slots of the project's open tasks: required minus submitted (active leases count as used later). */
async function freeSlots(dbUrl, projectUuid) {
  return withClient(dbUrl, async (c) => {
    const { rows } = await c.query(
      `SELECT coalesce(sum(required_submissions - submission_count), 0)::int AS n FROM tasks
        WHERE project_id = $1 AND completed_at IS NULL AND cancelled_at IS NULL`,
      [projectUuid],
    );
    return rows[0].n;
  });
}

/**
 * ctx: { url, liveKey, projectUuid, workers: [{userId, auth}], rounds, duration, warmup, thinkMs, dbUrl,
 *        adminUrl, log, monitor?, maxForeignCores, retries, serverGroup }
 */
export async function runCheckout(ctx) {
  const { url, liveKey, projectUuid, workers, rounds, duration, warmup, thinkMs = 0, log } = ctx;
  let tasksAdded = 0;
  let fastest = 0;
  const topUp = async () => {
    const want = Math.ceil(Math.max(ASSUMED_RATE, fastest) * 1.5 * (warmup + duration * (1 + ctx.retries)));
    const free = await freeSlots(ctx.dbUrl, projectUuid);
    if (free >= want) return;
    const tasks = Math.ceil((want - free) / REQUIRED_SUBMISSIONS / 1000) * 1000;
    const t0 = performance.now();
    tasksAdded += await addTasksInBulk(url, { liveKey, projectUuid, count: tasks, requiredSubmissions: REQUIRED_SUBMISSIONS });
    log(`  checkout: added ${tasks} tasks (${REQUIRED_SUBMISSIONS} submissions each) in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${free} free slots before`);
  };

  await topUp();
  const load = checkoutLoad({ url, projectUuid, workers, thinkMs });
  // Smoke test: one cycle per worker, so a wrong setup fails loudly (and every connection is open).
  load.start();
  await sleep(1000);
  await load.stop();
  if (load.totals.errors > 0) throw new Error(`checkout smoke test: ${load.totals.errorSamples.join('; ')}`);
  if (load.totals.submit201 === 0) throw new Error('checkout smoke test: no cycle completed');

  const perRound = [];
  for (let round = 1; round <= rounds; round++) {
    await topUp();
    await checkpoint(ctx.adminUrl);
    load.start();
    if (warmup > 0) await sleep(warmup * 1000);
    let r;
    for (let attempt = 0; ; attempt++) {
      r = await load.window(duration, ctx.monitor);
      const disturbed = r.cpu && r.cpu.foreignCores > ctx.maxForeignCores;
      log(
        `  checkout round ${round}/${rounds} ${r.checkoutsPerSecond.toFixed(0).padStart(6)} checkouts/s  ${r.submitsPerSecond.toFixed(0).padStart(6)} submits/s  ` +
          `checkout p50 ${r.checkoutP50.toFixed(1)} p99 ${r.checkoutP99.toFixed(1)} ms  submit p50 ${r.submitP50.toFixed(1)} p99 ${r.submitP99.toFixed(1)} ms  ` +
          `no task ${r.noTask}  errors ${r.errors}` +
          (r.cpu ? `  cpu: ours ${r.cpu.oursCores} other ${r.cpu.foreignCores} idle ${r.cpu.idleCores} iowait ${r.cpu.iowaitCores} steal ${r.cpu.stealCores}` : '') +
          (disturbed ? (attempt < ctx.retries ? '  -> disturbed, again' : '  -> disturbed, kept') : ''),
      );
      r.disturbed = Boolean(disturbed);
      if (!disturbed || attempt >= ctx.retries) break;
    }
    await load.stop();
    fastest = Math.max(fastest, r.checkoutsPerSecond);
    perRound.push(r);
    await sleep(1000);
  }
  await load.close();

  // Rows: every 201 is a row, and nothing else is (the workers stop only after submitting).
  const db = await withClient(ctx.dbUrl, async (c) => {
    const counts = (
      await c.query(
        `SELECT (SELECT count(*) FROM checkouts c JOIN tasks t ON t.id = c.task_id WHERE t.project_id = $1)::int AS checkouts,
                (SELECT count(*) FROM submissions s JOIN tasks t ON t.id = s.task_id WHERE t.project_id = $1)::int AS submissions,
                (SELECT count(*) FROM checkouts c JOIN tasks t ON t.id = c.task_id
                  WHERE t.project_id = $1 AND c.state = 'active' AND c.expires_at > now())::int AS active,
                (SELECT count(*) FROM tasks WHERE project_id = $1 AND completed_at IS NOT NULL)::int AS completed,
                (SELECT count(*) FROM tasks WHERE project_id = $1)::int AS tasks`,
        [projectUuid],
      )
    ).rows[0];
    const invariants = await countInvariantViolations(c, projectUuid);
    return { counts, invariants };
  });
  const t = load.totals;
  const rows = {
    ...db.counts,
    checkout201: t.checkout201,
    submit201: t.submit201,
    ok: db.counts.checkouts === t.checkout201 && db.counts.submissions === t.submit201 && db.counts.active === 0,
  };

  const cpuPerCycle = (() => {
    if (!perRound.every((r) => r.cpu)) return null;
    const per = (r, cores) => (cores * 1e6) / r.checkoutsPerSecond;
    const out = {};
    for (const [label, group] of Object.entries({ server: ctx.serverGroup, postgres: 'postgres', redis: 'redis', driver: 'driver' })) {
      out[label] = Math.round(median(perRound.map((r) => per(r, r.cpu.groupsCores[group] ?? 0))));
    }
    out.total = Math.round(median(perRound.map((r) => per(r, r.cpu.oursCores))));
    out.driverCores = median(perRound.map((r) => r.cpu.groupsCores.driver ?? 0));
    return out;
  })();

  return {
    workers: workers.length,
    thinkMs,
    rounds,
    duration,
    warmup,
    requiredSubmissions: REQUIRED_SUBMISSIONS,
    tasksAdded,
    checkoutsPerSecondMedian: median(perRound.map((r) => r.checkoutsPerSecond)),
    checkoutsPerSecond: perRound.map((r) => Math.round(r.checkoutsPerSecond)),
    submitsPerSecondMedian: median(perRound.map((r) => r.submitsPerSecond)),
    checkoutP50Median: median(perRound.map((r) => r.checkoutP50)),
    checkoutP99Median: median(perRound.map((r) => r.checkoutP99)),
    checkoutP99: perRound.map((r) => Math.round(r.checkoutP99 * 10) / 10),
    submitP50Median: median(perRound.map((r) => r.submitP50)),
    submitP99Median: median(perRound.map((r) => r.submitP99)),
    noTask: t.noTask,
    errors: t.errors,
    errorSamples: t.errorSamples,
    statusCodes: t.statusCodes,
    resumed: t.checkout200,
    foreignCores: perRound.map((r) => r.cpu?.foreignCores ?? null),
    disturbedRuns: perRound.filter((r) => r.disturbed).length,
    cpuUsPerCycle: cpuPerCycle,
    invariants: db.invariants,
    rows,
    runs: perRound,
  };
}
