// Project annotations export: GET /api/v1/projects/:uuid/annotations (and ?format=coco, ?format=csv) of a project
// with N complete tasks, each with 3 submissions from 3 distinct workers holding 1-3 boxes (a car, a
// person, a stray box), so the consensus has real clustering to do. The fixture is written straight
// into the bench database with SQL, as apps/api/test/work-fixtures.ts does (triggers off for the
// transaction, rows kept consistent by the fixture; the invariant checks run on it afterwards). Each
// task also gets what the submission completing it stores: its consensus (computed with libs/boxes from
// the API build under test) and the project's IoU threshold, so the export reads what it would in use.
// Each export streams the whole body through the driver (bytes counted, chunks kept) and is timed to
// the last byte; the body is parsed and checked only after the clock stops. Meanwhile a worker thread
// samples the server's VmRSS every ~20 ms: the figure is the peak over the RSS just before the request.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parse as parseCsv } from 'csv-parse/sync';
import { request } from 'undici';
import { checkpoint, withClient } from './lib/db.mjs';
import { countInvariantViolations } from './lib/invariants.mjs';
import { rssSampler } from './lib/rss-sampler.mjs';
import { median } from './lib/stats.mjs';

export const EXPORT_FORMATS = ['json', 'coco', 'csv'];

/** The rule the stored consensus is computed by (apps/api/src/submissions/stored-consensus.ts). */
const CONSENSUS_RULE = 4;

/** Tasks whose consensus the fixture computes per round trip. */
const CONSENSUS_CHUNK = 10_000;

/**
 * libs/boxes' consensus as the API under test runs it: from the copy of dist/api the benchmark started
 * (bench/results/api-dist or api-dist-<pid>, see scripts/bench.mjs), else dist/api.
 */
function loadConsensus() {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const dists = [join(root, `bench/results/api-dist-${process.pid}`), join(root, 'bench/results/api-dist'), join(root, 'dist/api')];
  const dist = dists.find((d) => existsSync(join(d, 'libs/boxes/src/index.js')));
  if (!dist) throw new Error(`the export fixture needs the built libs/boxes (one of ${dists.join(', ')})`);
  return createRequire(import.meta.url)(join(dist, 'libs/boxes/src/index.js'));
}

/** KiB (as /proc reports) -> MB (10^6 bytes, as the target is stated). */
const mb = (kib) => (kib * 1024) / 1e6;

/**
 * Writes `tasks` complete tasks into the project (3 submitted checkouts and 3 submissions each, from
 * `workerIds` in rotation), then VACUUM ANALYZE. Resolves to { seconds, tasks, submissions, boxes }.
 */
export async function buildExportFixture(dbUrl, { projectUuid, workerIds, tasks, prompt }) {
  if (workerIds.length < 3) throw new Error('the export fixture needs at least 3 workers');
  const t0 = performance.now();
  await withClient(dbUrl, async (c) => {
    await c.query('BEGIN');
    // As apps/api/test/work-fixtures.ts: the lease triggers would refuse these rows, CHECKs still apply.
    await c.query('SET LOCAL session_replication_role = replica');
    // Per task: one car and one person (integer pixels, inside a 640x480 image even after +-3 px jitter).
    await c.query(
      `CREATE TEMP TABLE bench_export_tasks ON COMMIT DROP AS
       SELECT gen_random_uuid() AS id, i,
              now() - interval '2 days' + i * interval '1 millisecond' AS created_at,
              60 + floor(random() * 521)::int AS cx1, 60 + floor(random() * 361)::int AS cy1,
              30 + floor(random() * 71)::int AS w1, 20 + floor(random() * 61)::int AS h1,
              60 + floor(random() * 521)::int AS cx2, 60 + floor(random() * 361)::int AS cy2,
              20 + floor(random() * 41)::int AS w2, 40 + floor(random() * 61)::int AS h2
         FROM generate_series(1, $1::int) i`,
      [tasks],
    );
    // Submission k (0..2) of task i is worker (i + k) mod n: three distinct workers per task. nb boxes:
    // 1 = the car, 2 = + the person, 3 = + a stray car box somewhere else (dropped by the consensus
    // unless it happens to overlap).
    const j = `(floor(random() * 7)::int - 3)`;
    await c.query(
      `CREATE TEMP TABLE bench_export_subs ON COMMIT DROP AS
       SELECT id, checkout_id, task_id, i, worker_id, checked_out_at, at,
              jsonb_build_array(jsonb_build_object('label', 'car', 'center_x', cx1 + ${j}, 'center_y', cy1 + ${j},
                                                   'width', w1 + ${j}, 'height', h1 + ${j}))
              || CASE WHEN nb >= 2 THEN jsonb_build_array(jsonb_build_object('label', 'person', 'center_x', cx2 + ${j},
                                                   'center_y', cy2 + ${j}, 'width', w2 + ${j}, 'height', h2 + ${j}))
                      ELSE '[]'::jsonb END
              || CASE WHEN nb >= 3 THEN jsonb_build_array(jsonb_build_object('label', 'car',
                                                   'center_x', 60 + floor(random() * 521)::int, 'center_y', 60 + floor(random() * 361)::int,
                                                   'width', 20 + floor(random() * 61)::int, 'height', 20 + floor(random() * 61)::int))
                      ELSE '[]'::jsonb END AS boxes
         FROM (SELECT gen_random_uuid() AS id, gen_random_uuid() AS checkout_id, t.id AS task_id, t.i,
                      ($1::uuid[])[1 + (t.i + k) % cardinality($1::uuid[])] AS worker_id,
                      t.created_at + interval '1 second' AS checked_out_at,
                      t.created_at + (k + 2) * interval '1 second' AS at,
                      1 + floor(random() * 3)::int AS nb,
                      t.cx1, t.cy1, t.w1, t.h1, t.cx2, t.cy2, t.w2, t.h2
                 FROM bench_export_tasks t CROSS JOIN generate_series(0, 2) k) x`,
      [workerIds],
    );
    // As the submission that completes a task does (apps/api/src/work/submit.service.ts): its consensus,
    // computed by the same libs/boxes code the API under test runs, stored as the JSON text of the boxes
    // with the project's threshold, and its frame (the first submission's image size, 640x480 here).
    await c.query('CREATE TEMP TABLE bench_export_consensus (id uuid PRIMARY KEY, consensus text) ON COMMIT DROP');
    const [{ threshold }] = (await c.query('SELECT consensus_iou_threshold AS threshold FROM projects WHERE id = $1', [projectUuid])).rows;
    const { consensus } = loadConsensus();
    for (let from = 1; from <= tasks; from += CONSENSUS_CHUNK) {
      const { rows } = await c.query(
        `SELECT task_id, json_agg(json_build_array(worker_id, boxes) ORDER BY at, id) AS subs
           FROM bench_export_subs WHERE i BETWEEN $1 AND $2 GROUP BY task_id`,
        [from, from + CONSENSUS_CHUNK - 1],
      );
      const texts = rows.map((r) => JSON.stringify(consensus(r.subs.map(([worker, boxes]) => ({ worker, boxes })), { iouThreshold: threshold })));
      await c.query('INSERT INTO bench_export_consensus SELECT * FROM unnest($1::uuid[], $2::text[])', [rows.map((r) => r.task_id), texts]);
    }
    await c.query(
      `INSERT INTO tasks (id, project_id, prompt, substitutions, external_image_url, reward, required_submissions,
                          allowed_completion_time_seconds, submission_count, created_at, completed_at,
                          consensus, consensus_iou_threshold, consensus_rule, frame_width, frame_height)
       SELECT t.id, $1, $2, '{"object":"car"}'::jsonb, 'https://images.example.com/bench/' || t.i || '.jpg', 25, 3,
              600, 3, t.created_at, t.created_at + interval '4 seconds', x.consensus::json, $3::real, $4::smallint, 640, 480
         FROM bench_export_tasks t JOIN bench_export_consensus x ON x.id = t.id`,
      // The stored consensus's rule: CONSENSUS_RULE in apps/api/src/submissions/stored-consensus.ts (every
      // submission here is 640x480, so both rules give the same boxes), or the export would compute them all.
      [projectUuid, prompt, threshold, CONSENSUS_RULE],
    );
    await c.query(
      `INSERT INTO checkouts (id, task_id, worker_id, checked_out_at, expires_at, state, ended_at)
       SELECT checkout_id, task_id, worker_id, checked_out_at, checked_out_at + interval '600 seconds', 'submitted', at
         FROM bench_export_subs`,
    );
    await c.query(
      `INSERT INTO submissions (id, checkout_id, task_id, worker_id, boxes, image_width, image_height, reward, request_hash, created_at)
       SELECT id, checkout_id, task_id, worker_id, boxes, 640, 480, 25, 'bench-fixture', at
         FROM bench_export_subs`,
    );
    await c.query('COMMIT');
    await c.query('VACUUM ANALYZE tasks, checkouts, submissions');
  });
  const stats = await withClient(dbUrl, async (c) => {
    const { rows } = await c.query(
      `SELECT count(*)::int AS submissions, sum(jsonb_array_length(s.boxes))::int AS boxes
         FROM submissions s JOIN tasks t ON t.id = s.task_id WHERE t.project_id = $1`,
      [projectUuid],
    );
    const invariants = await countInvariantViolations(c, projectUuid);
    return { ...rows[0], invariants };
  });
  return { seconds: (performance.now() - t0) / 1000, tasks, ...stats };
}

/**
 * One export, streamed and timed to the last byte; resolves to
 * { status, seconds, ttfbSeconds, bytes, body (Buffer), rss, cpu }.
 */
export async function exportOnce({ url, liveKey, projectUuid, format, serverPid, monitor }) {
  const path = `/api/v1/projects/${projectUuid}/annotations${format === 'json' ? '' : `?format=${format}`}`;
  const sampler = await rssSampler(serverPid).start();
  const before = await monitor?.start();
  const t0 = performance.now();
  const res = await request(url + path, { method: 'GET', headers: { apikey: liveKey } });
  const ttfb = performance.now() - t0;
  const chunks = [];
  let bytes = 0;
  for await (const chunk of res.body) {
    bytes += chunk.length;
    chunks.push(chunk);
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpu = (await monitor?.stop(before)) ?? null;
  const rss = (await sampler?.stop()) ?? null;
  return { status: res.statusCode, seconds, ttfbSeconds: ttfb / 1000, bytes, body: Buffer.concat(chunks, bytes), rss, cpu };
}

/** Parses an export after timing; resolves to { ok, entries, boxes, problem? }. */
function check(format, body, tasks) {
  if (format === 'csv') return checkCsv(body, tasks);
  let doc;
  try {
    doc = JSON.parse(body.toString('utf8'));
  } catch (e) {
    return { ok: false, entries: 0, boxes: 0, problem: `not JSON: ${e.message}` };
  }
  if (format === 'json') {
    const entries = Array.isArray(doc?.data) ? doc.data.length : 0;
    const boxes = entries ? doc.data.reduce((s, e) => s + e.annotations.length, 0) : 0;
    const ids = new Set(entries ? doc.data.map((e) => e.task_uuid) : []);
    const ok = entries === tasks && ids.size === tasks;
    return { ok, entries, boxes, problem: ok ? undefined : `${entries} entries (${ids.size} distinct) for ${tasks} tasks` };
  }
  const entries = Array.isArray(doc?.images) ? doc.images.length : 0;
  const boxes = Array.isArray(doc?.annotations) ? doc.annotations.length : 0;
  const ok = entries === tasks;
  return { ok, entries, boxes, problem: ok ? undefined : `${entries} images for ${tasks} tasks` };
}

/** A CSV export: a header, then one record per box (or one per task without boxes), every task present. */
function checkCsv(body, tasks) {
  let records;
  try {
    records = parseCsv(body.toString('utf8'));
  } catch (e) {
    return { ok: false, entries: 0, boxes: 0, problem: `not CSV: ${e.message}` };
  }
  const rows = records.slice(1);
  const entries = new Set(rows.map((r) => r[0])).size;
  const boxes = rows.filter((r) => r[5] !== '').length;
  const ok = records[0]?.[0] === 'task_uuid' && entries === tasks;
  return { ok, entries, boxes, problem: ok ? undefined : `${entries} distinct tasks for ${tasks} tasks` };
}

/**
 * After the first export: had the fixture's consensus not been used (CONSENSUS_RULE above behind the
 * API's), the export computed every one and stored it back with the API's rule, and would measure that.
 */
async function expectStoredConsensusUsed(ctx) {
  const stale = await withClient(ctx.dbUrl, async (c) =>
    (await c.query('SELECT count(*)::int AS n FROM tasks WHERE project_id = $1 AND consensus_rule <> $2', [ctx.projectUuid, CONSENSUS_RULE])).rows[0].n,
  );
  if (stale > 0) throw new Error(`the export recomputed ${stale} stored consensus: bench/export.bench.mjs's CONSENSUS_RULE (${CONSENSUS_RULE}) is not the API's`);
}

/**
 * ctx: { url, dbUrl, liveKey, projectUuid, tasks, runs, warmupRuns, serverPid, adminUrl, log, monitor?,
 *        maxForeignCores, retries }
 */
export async function runExport(ctx) {
  const { runs, warmupRuns, log } = ctx;
  const out = {};
  for (const format of EXPORT_FORMATS) {
    const measured = [];
    const warm = [];
    const problems = [];
    for (let i = 0; i < warmupRuns + runs; i++) {
      const warming = i < warmupRuns;
      let r;
      for (let attempt = 0; ; attempt++) {
        await checkpoint(ctx.adminUrl);
        await sleep(500);
        r = await exportOnce({ ...ctx, format });
        r.disturbed = Boolean(r.cpu && r.cpu.foreignCores > ctx.maxForeignCores);
        if (warming || !r.disturbed || attempt >= ctx.retries) break;
        log(`  export ${format} run ${i - warmupRuns + 1}/${runs} disturbed (other programs used ${r.cpu.foreignCores} cores), again`);
      }
      const body = r.body;
      delete r.body;
      Object.assign(r, r.status === 200 ? check(format, body, ctx.tasks) : { ok: false, entries: 0, boxes: 0, problem: `HTTP ${r.status}: ${body.toString('utf8', 0, 300)}` });
      if (!r.ok) problems.push(r.problem);
      log(
        `  export ${format.padEnd(4)} ${warming ? 'warm-up' : `run ${i - warmupRuns + 1}/${runs}`}  ${r.seconds.toFixed(2)} s  ` +
          `(first byte ${(r.ttfbSeconds * 1000).toFixed(0)} ms)  ${(r.bytes / 1e6).toFixed(1)} MB  ${r.entries} entries  ${r.boxes} boxes  ` +
          (r.rss ? `RSS ${mb(r.rss.beforeKiB).toFixed(0)} -> peak ${mb(r.rss.peakKiB).toFixed(0)} MB (+${mb(r.rss.growthKiB).toFixed(1)}, ${r.rss.samples} samples)` : 'RSS n/a') +
          (r.cpu ? `  cpu: server ${r.cpu.groupsCores[ctx.serverGroup] ?? 0} postgres ${r.cpu.groupsCores.postgres ?? 0} driver ${r.cpu.groupsCores.driver ?? 0} other ${r.cpu.foreignCores}` : '') +
          (r.ok ? '' : `  INVALID: ${r.problem}`),
      );
      (warming ? warm : measured).push(r);
      if (i === 0) await expectStoredConsensusUsed(ctx);
    }
    const growth = (rs) => rs.map((r) => (r.rss ? mb(r.rss.growthKiB) : null));
    const cpuSeconds = (group) => median(measured.map((r) => (r.cpu ? (group ? r.cpu.groupsCores[group] ?? 0 : r.cpu.oursCores) * r.cpu.seconds : NaN)));
    out[format] = {
      secondsMedian: median(measured.map((r) => r.seconds)),
      seconds: measured.map((r) => Math.round(r.seconds * 1000) / 1000),
      ttfbMedian: median(measured.map((r) => r.ttfbSeconds)),
      bytes: measured[0]?.bytes ?? 0,
      entries: measured[0]?.entries ?? 0,
      boxes: measured[0]?.boxes ?? 0,
      rssGrowthMBMedian: median(growth(measured)),
      rssGrowthMB: growth(measured).map((x) => (x === null ? null : Math.round(x * 10) / 10)),
      rssGrowthMBMax: Math.max(...growth([...warm, ...measured]).filter((x) => x !== null)),
      warmupRssGrowthMB: growth(warm).map((x) => (x === null ? null : Math.round(x * 10) / 10)),
      warmupSeconds: warm.map((r) => Math.round(r.seconds * 1000) / 1000),
      rssBeforeMB: measured.map((r) => (r.rss ? Math.round(mb(r.rss.beforeKiB)) : null)),
      cpuSeconds: {
        server: cpuSeconds(ctx.serverGroup),
        postgres: cpuSeconds('postgres'),
        driver: cpuSeconds('driver'),
        total: cpuSeconds(null),
      },
      foreignCores: measured.map((r) => r.cpu?.foreignCores ?? null),
      disturbedRuns: measured.filter((r) => r.disturbed).length,
      failed: problems.length,
      firstFailure: problems[0],
      runs: [...warm.map((r) => ({ ...r, warmup: true })), ...measured],
    };
  }
  return { tasks: ctx.tasks, runs, warmupRuns, ...out };
}
