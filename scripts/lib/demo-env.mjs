// The defaults `npm start` gives the API's environment for a local demo. Pure, so it is tested
// (apps/api/src/bootstrap/__tests__/demo-env.spec.ts).

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost', '[::1]']);

/** `env` (the environment plus .env) with the demo's defaults for what it leaves unset. */
export function demoEnvironment(env, { webDist }) {
  const out = { ...env };
  out.NODE_ENV ??= 'development';
  out.HOST ??= '127.0.0.1';
  out.PORT ??= '3000';
  out.REDIS_URL ??= 'redis://127.0.0.1:6379';
  // The demo posts webhooks to receivers on this machine. Only a development server that listens on
  // loopback alone gets that: one reachable from elsewhere, or in production, keeps the SSRF guard
  // (false), or anyone who signs up could have it post into this machine's network and read the replies'
  // first KiB in the console's attempt log. Set it explicitly to choose otherwise.
  if (out.NODE_ENV === 'development' && LOOPBACK_HOSTS.has(out.HOST)) out.WEBHOOK_ALLOW_PRIVATE_NETWORKS ??= 'true';
  out.WEB_DIST_DIR ??= webDist;
  return out;
}
