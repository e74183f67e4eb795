// `npm test`: every check and every test, the same here and in CI: typecheck, lint, unit tests,
// API end-to-end tests against the real PostgreSQL and Redis, and browser tests in Chromium (web-e2e).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Written by scripts/jest-failure-log.cjs, one brief entry per failed test, and printed again last: a log
// read from its end (a CI page) then names the failed tests and their first lines, not only the project.
const failures = join(dirname(fileURLToPath(import.meta.url)), '..', 'tmp', 'test-failures.log');
rmSync(failures, { force: true });

const env = { ...process.env, NX_NO_CLOUD: 'true', NX_DAEMON: 'false', CROWDBOX_TEST_FAILURES: failures };
const args = ['nx', 'run-many', '-t', 'typecheck', 'lint', 'test', '--outputStyle=stream', '--parallel=1', '--skipNxCache'];
const result = spawnSync('npx', args, { stdio: 'inherit', env });
if (result.status !== 0 && existsSync(failures)) {
  process.stdout.write(`\nFailed tests (each reported in full above):\n${readFileSync(failures, 'utf8')}`);
}
process.exit(result.status ?? 1);
