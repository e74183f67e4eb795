import { eventually } from '../../../test/eventually';
import { aRequester, type Requester } from '../../../test/factories';
import { startPrivateRedis, type PrivateRedis } from '../../../test/private-redis';
import { startTestApp, type TestApp } from '../../../test/test-app';

/**
 * A Redis that keeps its connection open and stops answering (stuck, paused, a partition that drops
 * packets) is not an error to the client, so without a command timeout every API call waited on its
 * rate limit for as long as Redis did.
 */
describe('a Redis that stops answering', () => {
  let redis: PrivateRedis;
  let t: TestApp;
  let r: Requester;
  beforeAll(async () => {
    redis = await startPrivateRedis();
    t = await startTestApp({ REDIS_URL: redis.url, REDIS_COMMAND_TIMEOUT_MS: '300' }, { role: 'http' });
    r = await aRequester(t);
    await eventually(async () => (await t.request({ method: 'GET', url: '/readyz' })).body.data?.redis === 'ok', 5000);
  });
  afterAll(async () => {
    redis.resume();
    await t.close();
    await redis.stop();
  });

  it('costs a request REDIS_COMMAND_TIMEOUT_MS at most: its rate limit falls back to memory', async () => {
    redis.pause();
    try {
      for (let i = 0; i < 3; i++) {
        const from = Date.now();
        const res = await t.request({ method: 'GET', url: '/api/v1/ping', headers: { apikey: r.liveKey } });
        expect(res.status).toBe(200);
        expect(Date.now() - from).toBeLessThan(2000);
      }
      const ready = await t.request({ method: 'GET', url: '/readyz' });
      expect(ready.body.data).toMatchObject({ ok: true, postgres: 'ok' });
      expect(ready.body.data.redis).not.toBe('ok');
    } finally {
      redis.resume();
    }
  }, 20_000);
});
