// The worker bundle's size: what a worker's browser downloads to open /work and the annotator, i.e.
// the entry chunk, every chunk it imports statically, and their CSS, gzipped. Chunks reached only
// through a dynamic import() are listed apart and not counted: first those a worker's pages load on
// demand (the problem report panel, /work/history, /account), then the rest (the /console area).
//
//   node bench/web-bundle.mjs            build apps/web into a temp directory and report
//   node bench/web-bundle.mjs --json     the same as one JSON object on stdout
//   node bench/web-bundle.mjs --dist DIR report on a build already in DIR (made with --manifest), left
//                                        there: the browser tests check their own build so
//
// Exits 1 when the worker bundle is over the target (250 KiB gzip, issue 5) or the build fails.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TARGET_GZIP_BYTES = 250 * 1024;
const json = process.argv.includes('--json');
const distAt = process.argv.indexOf('--dist');
const given = distAt > 0 ? process.argv[distAt + 1] : undefined;

const outDir = given ?? mkdtempSync(join(tmpdir(), 'crowdbox-web-bundle-'));
try {
  if (!given) {
    const vite = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
    const build = spawnSync(
      process.execPath,
      [vite, 'build', '--config', 'apps/web/vite.config.mts', '--outDir', outDir, '--emptyOutDir', '--manifest', '--logLevel', 'error'],
      { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] },
    );
    if (build.status !== 0) {
      console.error(`vite build failed (exit ${build.status})`);
      process.exit(1);
    }
  }
  const manifest = JSON.parse(readFileSync(join(outDir, '.vite', 'manifest.json'), 'utf8'));
  const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
  if (!entryKey) throw new Error('no entry in the vite manifest');

  const size = (file) => {
    const bytes = readFileSync(join(outDir, file));
    return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  };

  // The static closure of some chunks, with their CSS, leaving out files already in `skip`.
  const closure = (keys, skip = new Map()) => {
    const files = new Map();
    const visit = (key) => {
      const chunk = manifest[key];
      if (!chunk || files.has(chunk.file) || skip.has(chunk.file)) return;
      files.set(chunk.file, size(chunk.file));
      for (const css of chunk.css ?? []) if (!files.has(css) && !skip.has(css)) files.set(css, size(css));
      for (const imported of chunk.imports ?? []) visit(imported);
    };
    keys.forEach(visit);
    return files;
  };
  // What loads before the first worker page can render.
  const worker = closure([entryKey]);
  // What the worker's own pages import(): every dynamic entry outside the console's source.
  const onDemandKeys = Object.keys(manifest).filter((k) => manifest[k].isDynamicEntry && !manifest[k].src?.startsWith('src/console/'));
  const onDemand = closure(onDemandKeys, worker);
  const lazy = new Map();
  for (const chunk of Object.values(manifest)) {
    for (const file of [chunk.file, ...(chunk.css ?? [])]) if (!worker.has(file) && !onDemand.has(file) && !lazy.has(file)) lazy.set(file, size(file));
  }

  const total = (files) => [...files.values()].reduce((t, f) => ({ raw: t.raw + f.raw, gzip: t.gzip + f.gzip }), { raw: 0, gzip: 0 });
  const workerTotal = total(worker);
  const onDemandTotal = total(onDemand);
  const lazyTotal = total(lazy);
  const ok = workerTotal.gzip <= TARGET_GZIP_BYTES;
  const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;

  if (json) {
    const group = (sum, files) => ({ ...sum, files: [...files.values()] });
    const report = {
      target_gzip_bytes: TARGET_GZIP_BYTES,
      ok,
      worker: group(workerTotal, worker),
      worker_on_demand: group(onDemandTotal, onDemand),
      lazy: group(lazyTotal, lazy),
    };
    console.log(JSON.stringify(report, null, 2));
  } else {
    console.log('Worker bundle (entry + static imports + CSS):');
    for (const f of worker.values()) console.log(`  ${f.file.padEnd(44)} ${kib(f.raw).padStart(11)}  gzip ${kib(f.gzip).padStart(10)}`);
    console.log(`  ${'total'.padEnd(44)} ${kib(workerTotal.raw).padStart(11)}  gzip ${kib(workerTotal.gzip).padStart(10)}   target < ${kib(TARGET_GZIP_BYTES)}: ${ok ? 'met' : 'MISSED'}`);
    const list = (title, files, sum) => {
      console.log(title);
      for (const f of files.values()) console.log(`  ${f.file.padEnd(44)} ${kib(f.raw).padStart(11)}  gzip ${kib(f.gzip).padStart(10)}`);
      console.log(`  ${'total'.padEnd(44)} ${kib(sum.raw).padStart(11)}  gzip ${kib(sum.gzip).padStart(10)}`);
    };
    list('Loaded on demand by the worker pages (not counted: report panel, history, account):', onDemand, onDemandTotal);
    list('Other lazy chunks (not counted; the /console area):', lazy, lazyTotal);
  }
  process.exitCode = ok ? 0 : 1;
} finally {
  if (!given) rmSync(outDir, { recursive: true, force: true });
}
