import { rmSync } from 'node:fs';

export default async function globalTeardown(): Promise<void> {
  if (process.env.CB_E2E_WEB_DIST_OWNED === 'true' && process.env.CB_E2E_WEB_DIST) {
    rmSync(process.env.CB_E2E_WEB_DIST, { recursive: true, force: true });
  }
}
