// `npm test`: every check and every test, the same here and in CI: typecheck, lint, unit tests,
// API end-to-end tests against the real PostgreSQL and Redis, and browser tests in Chromium (web-e2e).
import { spawnSync } from 'node:child_process';

const env = { ...process.env, NX_NO_CLOUD: 'true', NX_DAEMON: 'false' };
const args = ['nx', 'run-many', '-t', 'typecheck', 'lint', 'test', '--outputStyle=stream', '--parallel=1', '--skipNxCache'];
const result = spawnSync('npx', args, { stdio: 'inherit', env });
process.exit(result.status ?? 1);
