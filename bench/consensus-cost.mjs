// The consensus's cost (API.md §5, libs/boxes consensus.util.ts) on the inputs that make it work hardest,
// within the limits and beyond, against the algorithm before its grid (the code of commit 626eb74, the
// reference the libs/boxes cost spec compares with), both in this process.
//
//   node bench/consensus-cost.mjs              every case, median of 5 runs
//   node bench/consensus-cost.mjs --runs 9     more runs
//   node bench/consensus-cost.mjs --json       one JSON object on stdout
//   node bench/consensus-cost.mjs --only cap   the cases whose name contains "cap"
//
// libs/boxes (and LIMITS from libs/contracts) are compiled with @swc/core into a temp directory, so no
// build is needed. Times are wall-clock, of one consensus() call: the median over the runs, after one
// untimed call of the new code (and, for the cases of many calls, a run's worth of calls of each code).
// The two codes' runs alternate, so that a busy moment of the machine costs both alike; the old code
// runs once only where a run takes over 10 s, and its result is checked to be the new code's. `ious` is
// how many IoUs the clustering computed (consensusWithCost): the work that grows with the square of a
// task's boxes, which LIMITS.boxesPerTask bounds.
import { transformFileSync, transformSync } from '@swc/core';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'libs/boxes/src');
const BASELINE_COMMIT = '626eb745e7fa18b22be2117faffe5680c2ac467c';
const args = process.argv.slice(2);
const json = args.includes('--json');
const runs = Number(args[args.indexOf('--runs') + 1]) || 5;
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : '';
/** The old code is skipped on cases where its first run took longer than this. */
const BASELINE_BUDGET_MS = 10_000;

const SWC = { jsc: { parser: { syntax: 'typescript', decorators: false }, target: 'es2022' }, module: { type: 'commonjs' } };
const out = mkdtempSync(join(tmpdir(), 'crowdbox-consensus-cost-'));
let current;
let LIMITS;
let baseline;
try {
  for (const file of readdirSync(SRC).filter((f) => f.endsWith('.ts'))) {
    writeFileSync(join(out, file.replace(/\.ts$/, '.js')), transformFileSync(join(SRC, file), SWC).code);
  }
  current = createRequire(import.meta.url)(join(out, 'consensus.util.js'));
  const limits = join(ROOT, 'libs/contracts/src/limits.ts');
  writeFileSync(join(out, 'limits.js'), transformFileSync(limits, SWC).code);
  ({ LIMITS } = createRequire(import.meta.url)(join(out, 'limits.js')));
  try {
    const old = execFileSync('git', ['show', `${BASELINE_COMMIT}:libs/boxes/src/consensus.util.ts`], { cwd: ROOT, encoding: 'utf8' });
    writeFileSync(join(out, 'consensus-baseline.util.js'), transformSync(old, { ...SWC, filename: 'consensus-baseline.util.ts' }).code);
    baseline = createRequire(import.meta.url)(join(out, 'consensus-baseline.util.js'));
  } catch (error) {
    console.error(`no baseline (git show ${BASELINE_COMMIT.slice(0, 7)} failed: ${error.message.split('\n')[0]})`);
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}

const FRAME = { width: 100_000, height: 100_000 };
const worker = (w) => `w${String(w).padStart(3, '0')}`;
let seed = 12345;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));

/** The security review's input: 500 small boxes per worker, shifted per worker so none reach the threshold together. */
function nonOverlapping(workers, perWorker = 500) {
  return Array.from({ length: workers }, (_, w) => ({
    worker: worker(w),
    image: FRAME,
    boxes: Array.from({ length: perWorker }, (_, i) => ({
      label: 'car',
      center_x: 50 + (i % 50) * 200 + w,
      center_y: 50 + Math.floor(i / 50) * 200 + w * 150,
      width: 10,
      height: 10,
    })),
  }));
}

/** Every worker draws the same box `perWorker` times: every box overlaps every cluster. */
function identical(workers, perWorker) {
  return Array.from({ length: workers }, (_, w) => ({
    worker: worker(w),
    image: FRAME,
    boxes: Array.from({ length: perWorker }, () => ({ label: 'car', center_x: 5000, center_y: 5000, width: 400, height: 300 })),
  }));
}

/**
 * Boxes of random sizes (20..2000 px a side) around one point: all of them overlap, most pairs stay
 * under the threshold, so nearly every box starts its own cluster and every later box is compared with
 * each of them: the most IoUs per box the rule can be made to compute.
 */
function heavyOverlap(workers, perWorker) {
  return Array.from({ length: workers }, (_, w) => ({
    worker: worker(w),
    image: FRAME,
    boxes: Array.from({ length: perWorker }, () => ({ label: 'car', center_x: int(4995, 5005), center_y: int(4995, 5005), width: int(20, 2000), height: int(20, 2000) })),
  }));
}

/** The webhook path's usual task: a few workers, a few boxes each, jittered around a few objects. */
function small(workers, perWorker) {
  const objects = Array.from({ length: perWorker }, (_, i) => ({ x: 100 + i * 150, y: 200 + (i % 3) * 100 }));
  return Array.from({ length: workers }, (_, w) => ({
    worker: worker(w),
    image: { width: 1280, height: 960 },
    boxes: objects.map((o) => ({ label: 'car', center_x: o.x + int(-3, 3), center_y: o.y + int(-3, 3), width: 80 + int(-4, 4), height: 60 + int(-4, 4) })),
  }));
}

const options = { iouThreshold: 0.5, frame: FRAME };
/** The most boxes a submission may hold in a task of `required` submissions (apps/api submit validation). */
const perSubmission = (required) => Math.min(LIMITS.boxesPerSubmission, Math.floor(LIMITS.boxesPerTask / required));
const cases = [
  ...[1, 3].map((w) => ({ name: `small: ${w} x 5 boxes (x20000 calls)`, subs: small(w, 5), repeat: 20000, opts: { iouThreshold: 0.5, frame: { width: 1280, height: 960 } } })),
  { name: 'small: 3 x 60 boxes (x1000 calls)', subs: small(3, 60), repeat: 1000, opts: { iouThreshold: 0.5, frame: { width: 1280, height: 960 } } },
  { name: 'solo: 1 x 500 identical (every submit)', subs: identical(1, 500) },
  ...[3, 10].map((w) => ({ name: `non-overlapping: ${w} x 500`, subs: nonOverlapping(w) })),
  ...[3, 10, 20, 50, 100].map((w) => ({ name: `identical at cap: ${w} x ${perSubmission(w)}`, subs: identical(w, perSubmission(w)) })),
  ...[3, 10, 20, 50, 100].map((w) => ({ name: `heavy overlap at cap: ${w} x ${perSubmission(w)}`, subs: heavyOverlap(w, perSubmission(w)) })),
  // Threshold 1: no box joins another, so each is compared with every earlier box of another worker.
  ...[10, 100].map((w) => ({ name: `heavy overlap at cap, threshold 1: ${w} x ${perSubmission(w)}`, subs: heavyOverlap(w, perSubmission(w)), opts: { iouThreshold: 1, frame: FRAME } })),
  // Beyond the cap: what tasks stored before it can still hold, and what it prevents.
  ...[30, 100].map((w) => ({ name: `no cap, non-overlapping: ${w} x 500`, subs: nonOverlapping(w) })),
  { name: 'no cap, identical: 20 x 500', subs: identical(20, 500) },
  { name: 'no cap, heavy overlap: 20 x 500', subs: heavyOverlap(20, 500) },
];

function time(fn, subs, opts, repeat) {
  const start = performance.now();
  let result;
  for (let i = 0; i < repeat; i++) result = fn(subs, opts);
  return { ms: (performance.now() - start) / repeat, result };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const results = [];
for (const c of cases.filter((c) => c.name.includes(only))) {
  const opts = c.opts ?? options;
  const repeat = c.repeat ?? 1;
  const boxes = c.subs.reduce((n, s) => n + s.boxes.length, 0);
  const cost = { ious: 0 };
  const expected = current.consensusWithCost(c.subs, opts, cost);
  const row = { case: c.name, boxes, ious: cost.ious };
  // A case of many calls warms both codes up with as many first.
  if (repeat > 1) for (const fn of [current.consensus, baseline?.consensus].filter(Boolean)) time(fn, c.subs, opts, repeat);
  const now = [];
  const old = [];
  let compared = !baseline;
  // Runs alternate between the two, so that a busy moment of the machine costs both alike.
  for (let r = 0; r < runs; r++) {
    now.push(time(current.consensus, c.subs, opts, repeat).ms);
    if (!baseline || (old.length > 0 && old[0] * repeat >= BASELINE_BUDGET_MS)) continue;
    const run = time(baseline.consensus, c.subs, opts, repeat);
    if (!compared && JSON.stringify(run.result) !== JSON.stringify(expected)) throw new Error(`${c.name}: the old and the new code disagree`);
    compared = true;
    old.push(run.ms);
  }
  row.ms = median(now);
  if (baseline) {
    row.baselineMs = median(old);
    row.baselineRuns = old.length;
  }
  results.push(row);
  if (!json) {
    const fmt = (ms) => (ms < 0.1 ? `${(ms * 1000).toFixed(1)} µs` : ms < 10 ? `${ms.toFixed(2)} ms` : ms < 100 ? `${ms.toFixed(1)} ms` : `${ms.toFixed(0)} ms`);
    const base = row.baselineMs === undefined ? '' : `   before: ${fmt(row.baselineMs)}${row.baselineRuns < runs ? ` (${row.baselineRuns} run)` : ''}`;
    console.log(`${c.name.padEnd(52)} ${String(boxes).padStart(6)} boxes  ${String(row.ious).padStart(10)} IoUs  ${fmt(row.ms).padStart(9)}${base}`);
  }
}
if (json) console.log(JSON.stringify({ node: process.version, runs, results }, null, 2));
