// The only place the browser tests reach into apps/api: its test helpers boot the real server
// (createApp, as production) on a private database copied from the migrated template.
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from '../../../api/test/test-app';

export { addTask, createApiKey, createProject, signUp, type SignedIn } from '../../../api/test/factories';
export type { TestApp } from '../../../api/test/test-app';

export interface ApiServer {
  t: TestApp;
  baseUrl: string;
  close: () => Promise<void>;
}

/** The real API with the built web app (WEB_DIST_DIR), listening on a free port of 127.0.0.1. */
export async function startApiServer(webDistDir: string): Promise<ApiServer> {
  const t = await startTestApp({ WEB_DIST_DIR: webDistDir });
  await t.app.listen(0, '127.0.0.1');
  const { port } = t.app.getHttpServer().address() as AddressInfo;
  return { t, baseUrl: `http://127.0.0.1:${port}`, close: () => t.close() };
}
