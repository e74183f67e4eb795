import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './repo-root';
import { createTemplateDatabase } from './server/template-database';

/**
 * Once per run: the migrated template database, and one production build of the web app (with its
 * manifest, which the bundle check reads) in a temp directory (not dist/web, which a concurrent
 * `npm start` or build may own). CB_E2E_WEB_DIST set by the caller skips the build (handy while
 * iterating on the tests only).
 */
export default async function globalSetup(): Promise<void> {
  await createTemplateDatabase();
  if (process.env.CB_E2E_WEB_DIST) return;
  const outDir = mkdtempSync(join(tmpdir(), 'crowdbox-web-e2e-'));
  const vite = join(REPO_ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  const result = spawnSync(process.execPath, [vite, 'build', '--config', 'apps/web/vite.config.mts', '--outDir', outDir, '--emptyOutDir', '--manifest', '--logLevel', 'warn'], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
    // Jest sets NODE_ENV=test, which Vite would carry into the bundle: React's development build (315 KiB
    // of worker bundle, not 222), so the tests ran code that never ships. The production build it is.
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) {
    rmSync(outDir, { recursive: true, force: true });
    throw new Error(`vite build of apps/web failed (exit ${result.status})`);
  }
  process.env.CB_E2E_WEB_DIST = outDir;
  process.env.CB_E2E_WEB_DIST_OWNED = 'true';
}
