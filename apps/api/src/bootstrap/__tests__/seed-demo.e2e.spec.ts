import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { startTestApp, type TestApp } from '../../../test/test-app';

const run = promisify(execFile);
const MODULE = resolve(__dirname, '../../../../../scripts/lib/seed-demo.mjs');

/** `npm start`'s seeding (scripts/lib/seed-demo.mjs), run by node against a listening test app. */
async function seed(baseUrl: string, keysFile: string): Promise<{ keys: { live: string; test: string } }> {
  const script = `import { seedDemo } from ${JSON.stringify(MODULE)};
    const seeded = await seedDemo(process.argv[1], { keysFile: process.argv[2], database: 'test' });
    console.log(JSON.stringify(seeded));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script, baseUrl, keysFile]);
  return JSON.parse(stdout);
}

describe("npm start's demo seeding", () => {
  let t: TestApp;
  let baseUrl: string;
  let dir: string;
  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const address = t.app.getHttpServer().address() as { port: number };
    baseUrl = `http://127.0.0.1:${address.port}`;
    dir = mkdtempSync(join(tmpdir(), 'cb-seed-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t.close();
  });

  it('changes nothing when run again, and still gets its keys after the keys file was lost more times than an account may hold keys', async () => {
    const keysFile = join(dir, 'keys.json');
    const first = await seed(baseUrl, keysFile);
    expect((await seed(baseUrl, keysFile)).keys).toEqual(first.keys);
    // Each lost file makes two keys; an account holds at most 20 unrevoked.
    let last = first;
    for (let i = 0; i < 11; i++) {
      rmSync(keysFile, { force: true });
      last = await seed(baseUrl, keysFile);
    }
    const ping = await t.request({ method: 'GET', url: '/api/v1/ping', headers: { apikey: last.keys.live } });
    expect(ping.status).toBe(200);
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM api_keys WHERE revoked_at IS NULL`);
    expect(n).toBeLessThanOrEqual(20);
  }, 60_000);
});
