// add_task throughput: autocannon at N connections against the baseline (bench/baseline-server.mjs)
// and the real API, each alone, alternating per round, after a warm-up before every measured run.
import { setTimeout as sleep } from 'node:timers/promises';
import { autocannonRound } from './lib/autocannon-round.mjs';
import { expectStatus } from './lib/api-setup.mjs';
import { checkpoint, withClient } from './lib/db.mjs';
import { median } from './lib/stats.mjs';

const PATH = '/api/v1/projects/add_task';

/**
 * ctx: { targets: { baseline: {url, projectUuid, headers, path?}, real: {…}, …more targets (--diagnose) },
 *        rounds, duration, warmup, connections, adminUrl, dbUrl, log, monitor?, maxForeignCores, retries }
 */
export async function runAddTask(ctx) {
  const { targets, rounds, duration, warmup, connections, log } = ctx;
  const names = Object.keys(targets); // ['baseline', 'real']
  const sent = Object.fromEntries(names.map((n) => [n, { ok: 0, runs: 0 }]));
  const perRound = Object.fromEntries(names.map((n) => [n, []]));

  const request = (name) => {
    const t = targets[name];
    return {
      url: t.url + (t.path ?? PATH),
      method: 'POST',
      headers: { 'content-type': 'application/json', ...t.headers },
      body: JSON.stringify({ task: { project_uuid: t.projectUuid, substitutions: { object: 'car' } } }),
    };
  };

  // Smoke test: one request each, so a wrong setup fails loudly instead of measuring 4xx at full speed.
  for (const name of names) {
    await expectStatus(request(name).url, { ...request(name), status: 201 });
    sent[name].ok += 1;
  }

  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 === 1 ? names : [...names].reverse();
    for (const name of order) {
      let r;
      // A run during which other programs used the CPU is measured again (at most ctx.retries times).
      for (let attempt = 0; ; attempt++) {
        await checkpoint(ctx.adminUrl);
        if (warmup > 0) {
          const w = await autocannonRound({ ...request(name), connections, duration: warmup, expectStatus: 201 });
          sent[name].ok += w.ok;
          sent[name].runs += 1;
          await sleep(500);
        }
        const before = await ctx.monitor?.start();
        r = await autocannonRound({ ...request(name), connections, duration, expectStatus: 201 });
        r.cpu = (await ctx.monitor?.stop(before)) ?? null;
        sent[name].ok += r.ok;
        sent[name].runs += 1;
        const disturbed = r.cpu && r.cpu.foreignCores > ctx.maxForeignCores;
        log(
          `  add_task round ${round}/${rounds} ${name.padEnd(8)} ${r.rps.toFixed(0).padStart(6)} req/s  ` +
            `p50 ${r.p50} ms  p99 ${r.p99} ms  non-2xx ${r.non2xx}  errors ${r.errors}  timeouts ${r.timeouts}` +
            (r.cpu ? `  cpu: ours ${r.cpu.oursCores} other ${r.cpu.foreignCores} idle ${r.cpu.idleCores} iowait ${r.cpu.iowaitCores} steal ${r.cpu.stealCores}` : '') +
            (disturbed ? (attempt < ctx.retries ? '  -> disturbed, again' : '  -> disturbed, kept') : ''),
        );
        r.disturbed = Boolean(disturbed);
        if (!disturbed || attempt >= ctx.retries) break;
        await sleep(1000);
      }
      perRound[name].push(r);
      // Requests cut off when autocannon stops may still be finishing: let them, before the next target.
      await sleep(1000);
    }
  }

  // Every 201 is a row; requests cut off at the end of a run may have committed without being counted.
  const rows = {};
  await withClient(ctx.dbUrl, async (c) => {
    for (const name of names) {
      const { rows: r } = await c.query('SELECT count(*)::int AS n FROM tasks WHERE project_id = $1', [targets[name].projectUuid]);
      rows[name] = { counted201: sent[name].ok, inDatabase: r[0].n, maxCutOff: sent[name].runs * connections };
      rows[name].ok = r[0].n >= sent[name].ok && r[0].n - sent[name].ok <= rows[name].maxCutOff;
    }
  });

  const summary = {};
  for (const name of names) {
    const rs = perRound[name];
    summary[name] = {
      rpsMedian: median(rs.map((r) => r.rps)),
      rps: rs.map((r) => Math.round(r.rps)),
      p50Median: median(rs.map((r) => r.p50)),
      p99Median: median(rs.map((r) => r.p99)),
      p99: rs.map((r) => r.p99),
      non2xx: rs.reduce((s, r) => s + r.non2xx, 0),
      errors: rs.reduce((s, r) => s + r.errors + r.timeouts, 0),
      statusCodes: mergeStatus(rs),
      foreignCores: rs.map((r) => r.cpu?.foreignCores ?? null),
      disturbedRuns: rs.filter((r) => r.disturbed).length,
      cpuUsPerRequest: cpuPerRequest(rs, targets[name].server),
      runs: rs.map((r) => ({ rps: Math.round(r.rps), p50: r.p50, p99: r.p99, non2xx: r.non2xx, disturbed: r.disturbed, cpu: r.cpu })),
    };
  }
  for (const name of names) {
    summary[name].ratio = summary[name].rpsMedian / summary.baseline.rpsMedian;
    // Ratio per round too (each round has one run of each, back to back): shows how stable the ratio is.
    summary[name].ratiosPerRound = perRound[name].map((r, i) => r.rps / perRound.baseline[i].rps);
  }
  return {
    connections,
    duration,
    warmup,
    rounds,
    targets: names,
    ...summary,
    ratio: summary.real.ratio,
    ratiosPerRound: summary.real.ratiosPerRound,
    rows,
  };
}

/**
 * CPU time per answered request by process (µs, median over the runs): the server under test, the
 * PostgreSQL backends of the benchmark database (+ its background processes), Redis, and the driver
 * (autocannon). On a machine this small the sum, not the server alone, is what limits throughput.
 */
function cpuPerRequest(results, server) {
  if (!results.every((r) => r.cpu)) return null;
  const per = (r, cores) => (cores * 1e6) / r.rps;
  const groups = { server, postgres: 'postgres', redis: 'redis', driver: 'driver' };
  const out = {};
  for (const [label, group] of Object.entries(groups)) out[label] = Math.round(median(results.map((r) => per(r, r.cpu.groupsCores[group] ?? 0))));
  out.total = Math.round(median(results.map((r) => per(r, r.cpu.oursCores))));
  return out;
}

function mergeStatus(results) {
  const out = {};
  for (const r of results) for (const [code, { count }] of Object.entries(r.statusCodeStats)) out[code] = (out[code] ?? 0) + count;
  return out;
}
