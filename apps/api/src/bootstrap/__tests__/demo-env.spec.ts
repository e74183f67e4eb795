import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

const MODULE = resolve(__dirname, '../../../../../scripts/lib/demo-env.mjs');

/** scripts/lib/demo-env.mjs's demoEnvironment, run by node as `npm start` runs it (an ES module). */
function demoEnvironment(env: Record<string, string>): Record<string, string> {
  const script = `import { demoEnvironment } from ${JSON.stringify(MODULE)};
    console.log(JSON.stringify(demoEnvironment(JSON.parse(process.argv[1]), { webDist: '/dist/web' })));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(env)], { encoding: 'utf8' }));
}

describe("npm start's demo environment", () => {
  it('lets a development server on loopback post webhooks to this machine', () => {
    expect(demoEnvironment({})).toMatchObject({ NODE_ENV: 'development', HOST: '127.0.0.1', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  });

  it('keeps the SSRF guard for a server reachable from elsewhere, or in production', () => {
    expect(demoEnvironment({ HOST: '0.0.0.0' }).WEBHOOK_ALLOW_PRIVATE_NETWORKS).toBeUndefined();
    expect(demoEnvironment({ NODE_ENV: 'production' }).WEBHOOK_ALLOW_PRIVATE_NETWORKS).toBeUndefined();
    expect(demoEnvironment({ HOST: '0.0.0.0', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }).WEBHOOK_ALLOW_PRIVATE_NETWORKS).toBe('true');
  });
});
