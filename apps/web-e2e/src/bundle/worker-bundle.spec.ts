import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../support/repo-root';

interface BundleReport {
  target_gzip_bytes: number;
  ok: boolean;
  worker: { gzip: number; files: Array<{ file: string; gzip: number }> };
  worker_on_demand: { gzip: number; files: Array<{ file: string; gzip: number }> };
}

/**
 * What a worker's browser downloads before the first /work page, measured on the build these tests run
 * (bench/web-bundle.mjs, the benchmark's own count), so a change that grows it past the budget fails CI
 * rather than waiting for someone to run the benchmark.
 */
describe('the worker bundle', () => {
  const dist = process.env.CB_E2E_WEB_DIST as string;
  const report = (): BundleReport => {
    const run = spawnSync(process.execPath, [join(REPO_ROOT, 'bench', 'web-bundle.mjs'), '--json', '--dist', dist], { encoding: 'utf8' });
    if (run.status === null || !run.stdout) throw new Error(`bench/web-bundle.mjs failed: ${run.stderr}`);
    return JSON.parse(run.stdout) as BundleReport;
  };

  it('stays within its 250 KiB gzip budget', () => {
    const { worker, target_gzip_bytes, ok } = report();
    expect(worker.gzip).toBeLessThanOrEqual(target_gzip_bytes);
    expect(ok).toBe(true);
  });

  /** The files of a group whose script holds zod: its classes name themselves in strings, which minifying keeps. */
  const withZod = (files: Array<{ file: string }>) =>
    files.filter((f) => f.file.endsWith('.js')).filter((f) => /\$ZodType|ZodError/.test(readFileSync(join(dist, f.file), 'utf8'))).map((f) => f.file);

  it('holds no zod: the worker app uses constants of libs/contracts, never its schemas', () => {
    expect(withZod(report().worker.files)).toEqual([]);
  });

  it('loads no zod on demand either (the problem report panel, history, account)', () => {
    // The panel's list of reasons once lived beside the release body's schema, and brought zod's
    // ~22 KiB gzip into a chunk of four radio buttons.
    const { worker_on_demand } = report();
    expect(worker_on_demand.files.map((f) => f.file)).toEqual(expect.arrayContaining([expect.stringMatching(/problem-report-.*\.js$/)]));
    expect(withZod(worker_on_demand.files)).toEqual([]);
  });
});
