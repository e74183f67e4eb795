import { randomBytes } from 'node:crypto';
import { eventually } from '../../../test/eventually';
import { addTask, aRequester, revokeApiKey, signUp, type Requester } from '../../../test/factories';
import { startPrivateRedis, type PrivateRedis } from '../../../test/private-redis';
import { startTestApp, type TestApp } from '../../../test/test-app';

/** Long enough that only an invalidation, never the TTL, can make the other process see a change in time. */
const CACHE_TTL_MS = '60000';
/** How long the other process may take to hear it: well under CACHE_TTL_MS. */
const AT_ONCE_MS = 2000;

const ping = (t: TestApp, key: string) => t.request({ method: 'GET', url: '/api/v1/ping', headers: { apikey: key } });
const me = (t: TestApp, user: { auth: Record<string, string> }) => t.request({ method: 'GET', url: '/api/session/me', headers: user.auth });

/** Whether `check` holds within AT_ONCE_MS. */
const soon = (check: () => Promise<boolean>) => eventually(check, AT_ONCE_MS, 25);

/**
 * Two processes, `a` and `b`, on one database and one Redis prefix, each with its in-process caches
 * (docs/decisions.md, "Revocations reach every process at once"): a revocation, ended sessions and a
 * project's change made through `a` are seen by `b` at once, not after CACHE_TTL_MS.
 */
describe('cache invalidation across processes', () => {
  let a: TestApp & { database: string };
  let b: TestApp;
  let r: Requester;
  beforeAll(async () => {
    const REDIS_PREFIX = `cbtest:${randomBytes(4).toString('hex')}`;
    a = await startTestApp({ CACHE_TTL_MS, REDIS_PREFIX });
    b = await startTestApp({ CACHE_TTL_MS, REDIS_PREFIX }, { database: a.database, role: 'http' });
    r = await aRequester(a);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('a key revoked through one process is refused by the other at once', async () => {
    expect((await ping(b, r.liveKey)).status).toBe(200);
    expect(await revokeApiKey(a, r, r.liveKey)).toBe(200);
    expect(await soon(async () => (await ping(b, r.liveKey)).status === 401)).toBe(true);
  });

  it('sessions ended by logout_others are refused by the other process at once', async () => {
    const worker = await signUp(a);
    const login = await a.request({ method: 'POST', url: '/api/session/login', body: { email: worker.email, password: 'correct horse battery' } });
    expect(login.status).toBe(200);
    const second = { auth: { authorization: `Bearer ${login.body.data.token}` } };
    expect((await me(b, worker)).status).toBe(200);
    expect((await me(b, second)).status).toBe(200);

    expect((await a.request({ method: 'POST', url: '/api/session/logout_others', headers: second.auth })).status).toBe(200);
    expect(await soon(async () => (await me(b, worker)).status === 401)).toBe(true);
    // The session that asked is kept, in both processes.
    expect((await me(b, second)).status).toBe(200);
  });

  it("a project's PATCH and archive reach the other process's add_task at once", async () => {
    const before = await addTask(b, r.testKey, { project_uuid: r.projectUuid, substitutions: { object: 'car' } });
    expect(before.status).toBe(201);
    expect(before.body.data.prompt).toContain('Draw a box around every car');

    const patched = await a.request({
      method: 'PATCH',
      url: `/api/console/projects/${r.projectUuid}`,
      headers: r.auth,
      body: { template: '<p>Outline each [[object]].</p>' },
    });
    expect(patched.status).toBe(200);
    expect(
      await soon(async () => {
        const res = await addTask(b, r.testKey, { project_uuid: r.projectUuid, substitutions: { object: 'car' } });
        return res.status === 201 && res.body.data.prompt === '<p>Outline each car.</p>';
      }),
    ).toBe(true);

    expect((await a.request({ method: 'POST', url: `/api/console/projects/${r.projectUuid}/archive`, headers: r.auth })).status).toBe(200);
    expect(await soon(async () => (await addTask(b, r.testKey, { project_uuid: r.projectUuid, substitutions: { object: 'car' } })).status === 422)).toBe(true);
  });
});

/**
 * Redis carries the invalidations but is not needed for them: with it gone a revocation still succeeds
 * and holds in the process that made it, and a process whose subscription was down forgets everything
 * once it is back, since it may have missed the message.
 */
describe('cache invalidation while Redis is away', () => {
  let redis: PrivateRedis;
  let a: TestApp & { database: string };
  let b: TestApp;
  beforeAll(async () => {
    redis = await startPrivateRedis();
    const env = { CACHE_TTL_MS, REDIS_URL: redis.url, REDIS_COMMAND_TIMEOUT_MS: '300' };
    // HTTP only: BullMQ's workers are not what this is about, and a restarted Redis holds none of their state.
    a = await startTestApp(env, { role: 'http' });
    b = await startTestApp(env, { database: a.database, role: 'http' });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await redis.stop();
  });

  it('a revocation succeeds with Redis down, and the process that made it refuses the key at once', async () => {
    const r = await aRequester(a);
    expect((await ping(a, r.liveKey)).status).toBe(200);
    await redis.stop();
    try {
      const from = Date.now();
      expect(await revokeApiKey(a, r, r.liveKey)).toBe(200);
      expect(Date.now() - from).toBeLessThan(2000);
      expect((await ping(a, r.liveKey)).status).toBe(401);
    } finally {
      redis = await startPrivateRedis(redis.port);
    }
  }, 20_000);

  it('a process that was cut off from Redis forgets its cached keys once it is subscribed again', async () => {
    await eventually(async () => (await b.request({ method: 'GET', url: '/readyz' })).body.data?.redis === 'ok', 10_000);
    const r = await aRequester(a);
    expect((await ping(b, r.liveKey)).status).toBe(200);
    await redis.stop();
    try {
      // The invalidation's publish fails: `b` never hears of this revocation.
      expect(await revokeApiKey(a, r, r.liveKey)).toBe(200);
      expect((await ping(b, r.liveKey)).status).toBe(200);
    } finally {
      redis = await startPrivateRedis(redis.port);
    }
    // ioredis retries every 2 s at most; once `b` is subscribed again it starts afresh.
    expect(await eventually(async () => (await ping(b, r.liveKey)).status === 401, 10_000)).toBe(true);
  }, 30_000);
});
