import { randomBytes } from 'node:crypto';
import { Cluster } from 'ioredis';
import { Webhook } from 'standardwebhooks';
import { aRequester, completeTaskWithCallback, revokeApiKey, signUp } from '../../../test/factories';
import { eventually } from '../../../test/eventually';
import { startRedisCluster, type TestRedisCluster } from '../../../test/redis-cluster';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { WebhookReceiver } from '../../../test/webhook-receiver';

/**
 * The whole app on a real three-master Redis Cluster (DESIGN.md §4): the shared client, the rate
 * limits, the producers' queues and BullMQ's workers all through ioredis's cluster client, with the
 * queues' keys under one hash tag.
 */
describe('on a Redis Cluster', () => {
  let cluster: TestRedisCluster;
  let t: TestApp & { database: string };
  let receiver: WebhookReceiver;
  let redis: Cluster;
  const prefix = `cbtest:${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    cluster = await startRedisCluster();
    receiver = await new WebhookReceiver().start();
    t = await startTestApp({
      REDIS_URL: cluster.url,
      REDIS_CLUSTER: 'true',
      REDIS_PREFIX: prefix,
      RATE_LIMIT_REQUESTS: '5',
      RATE_LIMIT_WINDOW_SECONDS: '60',
      RATE_LIMIT_BLOCK: '1',
      WEBHOOK_RETRY_SCHEDULE_SECONDS: '0.2,0.3',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    });
    redis = new Cluster(cluster.ports.map((port) => ({ host: '127.0.0.1', port })));
  }, 60_000);
  afterAll(async () => {
    await redis?.quit();
    await t?.close();
    await receiver?.stop();
    await cluster?.stop();
  });

  /** Every key under `match` on every master, with the port of the node that holds it. */
  const keysOnNodes = async (match: string): Promise<Array<{ key: string; port: number }>> => {
    const found: Array<{ key: string; port: number }> = [];
    for (const node of redis.nodes('master')) {
      const keys = await node.keys(match);
      found.push(...keys.map((key) => ({ key, port: node.options.port as number })));
    }
    return found;
  };

  it('is ready once the cluster client has found the nodes: /readyz pings the cluster', async () => {
    const ready = await eventually(async () => (await t.request({ method: 'GET', url: '/readyz' })).body.data?.redis === 'ok');
    expect(ready).toBe(true);
  });

  it('confirms a callback address and delivers the signed task_completed event through the queues', async () => {
    const r = await aRequester(t);
    const worker = await signUp(t);
    const taskId = await completeTaskWithCallback(t, r, worker, receiver.url('/cluster'));

    const event = await eventually(() => receiver.requests.find((req) => req.json?.event === 'task_completed'), 20_000);
    if (!event) throw new Error('no task_completed event arrived');
    expect(event.json?.data).toMatchObject({ task: { task_uuid: taskId }, annotations: { completed: true } });
    expect(receiver.requests.filter((req) => req.path === '/cluster').map((req) => req.json?.event)).toEqual(['challenge', 'task_completed']);
    const secret = (await t.request({ method: 'GET', url: '/api/console/webhooks', headers: r.auth })).body.data.signing_secret;
    expect(() => new Webhook(secret).verify(event.body, event.headers as Record<string, string>)).not.toThrow();

    // BullMQ's keys carry the hash tag, so each queue's keys (which one Lua script touches together)
    // are on one node; without it the scripts fail with CROSSSLOT.
    const queueKeys = await keysOnNodes(`{${prefix}:bull}:*`);
    expect(queueKeys.length).toBeGreaterThan(0);
    expect(new Set(queueKeys.map((k) => k.port)).size).toBe(1);
  });

  it('counts an API key\'s requests in the cluster: the limit holds', async () => {
    const r = await aRequester(t);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await t.request({ method: 'GET', url: `/api/v1/projects/${r.projectUuid}`, headers: { apikey: r.liveKey } });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses.slice(5)).toEqual([429, 429]);
    expect((await keysOnNodes(`${prefix}*`)).filter((k) => !k.key.startsWith(`{`)).length).toBeGreaterThan(0);
  });

  it('carries a revocation to another process at once: the invalidation channel works on a cluster', async () => {
    const r = await aRequester(t);
    const ping = (app: TestApp) => app.request({ method: 'GET', url: '/api/v1/ping', headers: { apikey: r.liveKey } });
    // Only the invalidation, never its TTL, can make `b` refuse the key in time.
    const b = await startTestApp(
      { REDIS_URL: cluster.url, REDIS_CLUSTER: 'true', REDIS_PREFIX: prefix, CACHE_TTL_MS: '60000' },
      { database: t.database, role: 'http' },
    );
    try {
      // Both processes' subscribers are in (cache-invalidation.ts subscribes on the cluster's first node).
      const channel = `${prefix}:cache-invalidation`;
      const subscribers = async () => {
        let count = 0;
        for (const node of redis.nodes('master')) count += Number(((await node.call('PUBSUB', 'NUMSUB', channel)) as [string, number])[1]);
        return count;
      };
      expect(await eventually(async () => (await subscribers()) >= 2)).toBe(true);
      expect((await ping(b)).status).toBe(200);
      expect(await revokeApiKey(t, r, r.liveKey)).toBe(200);
      expect(await eventually(async () => (await ping(b)).status === 401, 2_000, 25)).toBe(true);
    } finally {
      await b.close();
    }
  });
});
