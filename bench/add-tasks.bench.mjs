// add_tasks throughput: batches of `batchSize` tasks sent by `connections` concurrent clients until
// `batches` batches are done; tasks/s per round from wall-clock time, median across rounds. Both the
// baseline's bulk route (the same unnest INSERT, no checks) and the real API, alternating per round.
// The number of rows in the database must equal the number of tasks answered 201.
import { performance } from 'node:perf_hooks';
import { expectStatus } from './lib/api-setup.mjs';
import { checkpoint, withClient } from './lib/db.mjs';
import { median } from './lib/stats.mjs';

const PATH = '/api/v1/projects/add_tasks';

/** Sends `batches` POSTs with `connections` in flight; resolves to { ok, failed, seconds, latencies }. */
async function sendBatches({ url, headers, body, batches, connections }) {
  let next = 0;
  let ok = 0;
  const failed = [];
  const latencies = [];
  const worker = async () => {
    while (next < batches) {
      next++;
      const t0 = performance.now();
      const res = await fetch(url, { method: 'POST', headers, body });
      const text = await res.text();
      latencies.push(performance.now() - t0);
      if (res.status === 201) ok++;
      else failed.push(`${res.status} ${text.slice(0, 200)}`);
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: connections }, worker));
  return { ok, failed, seconds: (performance.now() - start) / 1000, latencies };
}

/**
 * ctx: { targets: { baseline: {url, projectUuid, headers}, real: {…} }, rounds, batches, batchSize,
 *        connections, warmupBatches, adminUrl, dbUrl, log, monitor?, maxForeignCores, retries }
 */
export async function runAddTasks(ctx) {
  const { targets, rounds, batches, batchSize, connections, warmupBatches, log } = ctx;
  const names = Object.keys(targets);
  const sentTasks = Object.fromEntries(names.map((n) => [n, 0]));
  const perRound = Object.fromEntries(names.map((n) => [n, []]));
  const failures = Object.fromEntries(names.map((n) => [n, []]));

  const request = (name) => {
    const t = targets[name];
    const tasks = Array.from({ length: batchSize }, (_, i) => ({ substitutions: { object: i % 2 ? 'car' : 'person' } }));
    return {
      url: t.url + PATH,
      headers: { 'content-type': 'application/json', ...t.headers },
      body: JSON.stringify({ project_uuid: t.projectUuid, tasks }),
    };
  };

  for (const name of names) {
    const r = request(name);
    await expectStatus(r.url, { method: 'POST', headers: r.headers, body: r.body, status: 201 });
    sentTasks[name] += batchSize;
  }

  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 === 1 ? names : [...names].reverse();
    for (const name of order) {
      let m;
      for (let attempt = 0; ; attempt++) {
        await checkpoint(ctx.adminUrl);
        const r = request(name);
        if (warmupBatches > 0) {
          const w = await sendBatches({ ...r, batches: warmupBatches, connections });
          sentTasks[name] += w.ok * batchSize;
          failures[name].push(...w.failed);
        }
        const before = await ctx.monitor?.start();
        m = await sendBatches({ ...r, batches, connections });
        m.cpu = (await ctx.monitor?.stop(before)) ?? null;
        sentTasks[name] += m.ok * batchSize;
        failures[name].push(...m.failed);
        m.disturbed = Boolean(m.cpu && m.cpu.foreignCores > ctx.maxForeignCores);
        if (!m.disturbed || attempt >= ctx.retries) break;
        log(`  add_tasks round ${round}/${rounds} ${name.padEnd(8)} disturbed (other programs used ${m.cpu.foreignCores} cores), again`);
      }
      const tasksPerSecond = (m.ok * batchSize) / m.seconds;
      const sorted = [...m.latencies].sort((a, b) => a - b);
      const res = {
        tasksPerSecond,
        ok: m.ok,
        failed: m.failed.length,
        seconds: m.seconds,
        p50: median(sorted),
        max: sorted[sorted.length - 1],
        cpu: m.cpu,
        disturbed: m.disturbed,
      };
      perRound[name].push(res);
      log(
        `  add_tasks round ${round}/${rounds} ${name.padEnd(8)} ${tasksPerSecond.toFixed(0).padStart(7)} tasks/s  ` +
          `(${m.ok} x ${batchSize} in ${m.seconds.toFixed(2)} s, batch p50 ${res.p50.toFixed(0)} ms, max ${res.max.toFixed(0)} ms, failed ${m.failed.length})` +
          (m.cpu ? `  cpu: ours ${m.cpu.oursCores} other ${m.cpu.foreignCores} idle ${m.cpu.idleCores} iowait ${m.cpu.iowaitCores} steal ${m.cpu.stealCores}` : ''),
      );
    }
  }

  const rows = {};
  await withClient(ctx.dbUrl, async (c) => {
    for (const name of names) {
      const { rows: r } = await c.query('SELECT count(*)::int AS n FROM tasks WHERE project_id = $1', [targets[name].projectUuid]);
      rows[name] = { sentTasks201: sentTasks[name], inDatabase: r[0].n, ok: r[0].n === sentTasks[name] };
    }
  });

  const summary = {};
  for (const name of names) {
    const rs = perRound[name];
    summary[name] = {
      tasksPerSecondMedian: median(rs.map((r) => r.tasksPerSecond)),
      tasksPerSecond: rs.map((r) => Math.round(r.tasksPerSecond)),
      batchP50Median: median(rs.map((r) => r.p50)),
      batchMax: Math.max(...rs.map((r) => r.max)),
      failed: failures[name].length,
      firstFailure: failures[name][0],
      foreignCores: rs.map((r) => r.cpu?.foreignCores ?? null),
      disturbedRuns: rs.filter((r) => r.disturbed).length,
      runs: rs,
    };
  }
  return {
    batches,
    batchSize,
    connections,
    rounds,
    ...summary,
    ratio: summary.real.tasksPerSecondMedian / summary.baseline.tasksPerSecondMedian,
    rows,
  };
}
