import { startTestApp, type TestApp } from '../../../test/test-app';
import { aRequester, aTask, addTask, type Requester } from '../../../test/factories';
import { startPrivateRedis, type PrivateRedis } from '../../../test/private-redis';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.schema';
import type { RedisClient } from '../../redis/redis-client';
import { REDIS } from '../../redis/redis.module';
import { TEST_KEYS_PER_DAY } from '../test-idempotency';

const TABLES = ['tasks', 'checkouts', 'submissions', 'idempotency_keys', 'webhook_endpoints', 'webhook_events', 'projects'];

describe('test keys', () => {
  let t: TestApp;
  let r: Requester;
  beforeAll(async () => {
    t = await startTestApp();
    r = await aRequester(t);
  });
  afterAll(() => t.close());

  const counts = async () => {
    const out: Record<string, number> = {};
    for (const table of TABLES) out[table] = Number((await t.db.query(`SELECT count(*) FROM ${table}`))[0].count);
    return out;
  };
  const get = (url: string) => t.request({ method: 'GET', url, headers: { apikey: r.testKey } });

  it('add_task renders the real prompt of an own project, is deterministic, and writes nothing', async () => {
    const before = await counts();
    const task = { project_uuid: r.projectUuid, substitutions: { object: '<b>car</b>' }, callback_url: 'https://hooks.example.com/x' };
    const first = await addTask(t, r.testKey, task, { 'idempotency-key': 'k1' });
    const second = await addTask(t, r.testKey, task);
    expect(first.status).toBe(201);
    expect(first.body).toEqual(second.body);
    expect(first.body.data).toMatchObject({
      prompt: '<p>Draw a box around every &lt;b&gt;car&lt;/b&gt; in <b>the picture</b>.</p>',
      reward: 25,
      required_submissions: 3,
      submission_count: 0,
      checked_out_at: null,
      callback_url: 'https://hooks.example.com/x',
      submissions: [],
    });
    const other = await addTask(t, r.testKey, { ...task, substitutions: { object: 'bus' } });
    expect(other.body.data.task_uuid).not.toBe(first.body.data.task_uuid);
    const batch = await t.request({
      method: 'POST',
      url: '/api/v1/projects/add_tasks',
      headers: { apikey: r.testKey },
      body: { project_uuid: r.projectUuid, tasks: [{ substitutions: { object: 'a' } }, { substitutions: { object: 'b' } }] },
    });
    expect(batch.status).toBe(201);
    expect(batch.body.data).toHaveLength(2);
    expect(await counts()).toEqual(before);
  });

  it('gives the same validation errors as a live key', async () => {
    const bad = { project_uuid: r.projectUuid, reward: -5, substitutions: { nope: 'x' } };
    const live = await addTask(t, r.liveKey, bad);
    const test = await addTask(t, r.testKey, bad);
    expect(test.status).toBe(422);
    expect(test.body).toEqual(live.body);
    const noTask = await t.request({ method: 'POST', url: '/api/v1/projects/add_task', headers: { apikey: r.testKey }, body: {} });
    expect(noTask.body).toEqual({ errors: [{ field: 'task', detail: 'task is a required field' }] });
    const badSubs = await addTask(t, r.testKey, { project_uuid: r.projectUuid, substitutions: {} });
    expect(badSubs.body.errors).toEqual([{ field: 'task.substitutions.object', detail: expect.any(String) }]);
  });

  describe('Idempotency-Key', () => {
    const keyed = (key: string, task: Record<string, unknown>, idempotencyKey: string) => addTask(t, key, task, { 'idempotency-key': idempotencyKey });
    const batch = (key: string, tasks: unknown[], idempotencyKey: string) =>
      t.request({ method: 'POST', url: '/api/v1/projects/add_tasks', headers: { apikey: key, 'idempotency-key': idempotencyKey }, body: { project_uuid: r.projectUuid, tasks } });

    it('refuses a key reused with another body as a live key does, replays the same body, and writes nothing', async () => {
      const task = { project_uuid: r.projectUuid, substitutions: { object: 'car' } };
      const bus = { ...task, substitutions: { object: 'bus' } };
      await keyed(r.liveKey, task, 'live-first');
      const live = await keyed(r.liveKey, bus, 'live-first');
      expect(live.status).toBe(422);
      const before = await counts();
      const first = await keyed(r.testKey, task, 'k-reused');
      expect(first.status).toBe(201);
      const conflict = await keyed(r.testKey, bus, 'k-reused');
      expect([conflict.status, conflict.body]).toEqual([422, live.body]);
      expect((await keyed(r.testKey, task, 'k-reused')).body).toEqual(first.body);
      // The stand-in project's answer, and add_tasks, keep their keys the same way.
      const elsewhere = { ...task, project_uuid: '11111111-1111-4111-8111-111111111111' };
      expect((await keyed(r.testKey, elsewhere, 'k-elsewhere')).status).toBe(201);
      expect((await keyed(r.testKey, { ...elsewhere, reward: 1 }, 'k-elsewhere')).body).toEqual(live.body);
      expect((await batch(r.testKey, [{ substitutions: { object: 'a' } }], 'k-batch')).status).toBe(201);
      expect((await batch(r.testKey, [{ substitutions: { object: 'b' } }], 'k-batch')).body).toEqual(live.body);
      // A body refused for itself does not take the key: sent again fixed, it is answered.
      const refused = await keyed(r.testKey, { ...task, reward: -1 }, 'k-fixed');
      expect(refused.body.errors[0].field).toBe('task.reward');
      expect((await keyed(r.testKey, task, 'k-fixed')).status).toBe(201);
      expect(await counts()).toEqual(before);
    });

    it("keeps a test key's keys apart from a live key's, both ways", async () => {
      const task = { project_uuid: r.projectUuid, substitutions: { object: 'car' } };
      const bus = { ...task, substitutions: { object: 'bus' } };
      expect((await keyed(r.testKey, task, 'k-shared')).status).toBe(201);
      const live = await keyed(r.liveKey, bus, 'k-shared');
      expect(live.status).toBe(201);
      expect((await keyed(r.testKey, task, 'k-shared')).status).toBe(201);
      expect((await keyed(r.liveKey, bus, 'k-shared')).body).toEqual(live.body);
    });

    it(`takes at most ${TEST_KEYS_PER_DAY} new keys an account a day, and still replays the keys it has`, async () => {
      const own = await aRequester(t);
      const task = { project_uuid: own.projectUuid, substitutions: { object: 'car' } };
      const first = await keyed(own.testKey, task, 'k-before-the-cap');
      expect(first.status).toBe(201);
      // The budget spent, as 10,000 keyed requests would leave it (rate-limiter-flexible's counter).
      const redis = t.app.get<RedisClient>(REDIS);
      const { REDIS_PREFIX } = t.app.get<AppConfig>(APP_CONFIG);
      await redis.set(`${REDIS_PREFIX}:test-idempotency-new:${own.accountId}`, String(TEST_KEYS_PER_DAY), 'EX', 3600);
      const refused = await keyed(own.testKey, task, 'k-past-the-cap');
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBeDefined();
      expect(refused.body.errors[0].detail).toContain('new Idempotency-Keys with test keys');
      expect(await keyed(own.testKey, task, 'k-before-the-cap')).toMatchObject({ status: 201, body: first.body });
      expect((await keyed(own.testKey, { ...task, substitutions: { object: 'bus' } }, 'k-before-the-cap')).status).toBe(422);
      // Without a key, nothing is counted or refused; another account has its own budget.
      expect((await addTask(t, own.testKey, task)).status).toBe(201);
      expect((await keyed(r.testKey, { project_uuid: r.projectUuid, substitutions: { object: 'car' } }, 'k-past-the-cap')).status).toBe(201);
    });

    it('counts no new key for a refused answer (a substitution the template does not have)', async () => {
      const own = await aRequester(t);
      const redis = t.app.get<RedisClient>(REDIS);
      const { REDIS_PREFIX } = t.app.get<AppConfig>(APP_CONFIG);
      const counted = async () => Number((await redis.get(`${REDIS_PREFIX}:test-idempotency-new:${own.accountId}`)) ?? 0);
      const refused = await keyed(own.testKey, { project_uuid: own.projectUuid, substitutions: { object: 'car', no_such_variable: 'x' } }, 'k-refused');
      expect(refused.status).toBe(422);
      expect(await counted()).toBe(0);
      expect((await keyed(own.testKey, { project_uuid: own.projectUuid, substitutions: { object: 'car' } }, 'k-taken')).status).toBe(201);
      expect(await counted()).toBe(1);
    });

    it('answers one body of several sent at once with one key, and refuses the others', async () => {
      const bodies = ['car', 'bus', 'car', 'bus', 'van', 'car', 'bus', 'van'].map((object) => ({ project_uuid: r.projectUuid, substitutions: { object } }));
      const answers = await Promise.all(bodies.map((task) => keyed(r.testKey, task, 'k-race')));
      const taken = new Set(answers.flatMap((res, i) => (res.status === 201 ? [bodies[i].substitutions.object] : [])));
      expect(taken.size).toBe(1);
      for (const [i, res] of answers.entries()) {
        expect(res.status).toBe(taken.has(bodies[i].substitutions.object) ? 201 : 422);
      }
    });
  });

  it('answers a project it does not have with a stand-in task, still writing nothing', async () => {
    const before = await counts();
    const res = await addTask(t, r.testKey, { project_uuid: '11111111-1111-4111-8111-111111111111', substitutions: { object: 'car' } });
    expect(res.status).toBe(201);
    expect(res.body.data.prompt).toContain('Test task');
    expect(await counts()).toEqual(before);
  });

  it('gives a stand-in task the image of the default image variable, checked as a live key\'s is', async () => {
    const missing = '11111111-1111-4111-8111-111111111111';
    const one = await addTask(t, r.testKey, { project_uuid: missing, substitutions: { image_url: ' https://images.example.com/a.jpg ' } });
    expect(one.status).toBe(201);
    expect(one.body.data.external_image_url).toBe('https://images.example.com/a.jpg');
    const given = await addTask(t, r.testKey, { project_uuid: missing, external_image_url: 'https://images.example.com/b.jpg', substitutions: { image_url: 'not a url' } });
    expect(given.body.data.external_image_url).toBe('https://images.example.com/b.jpg');
    const bad = await addTask(t, r.testKey, { project_uuid: missing, substitutions: { image_url: 'not a url' } });
    expect({ status: bad.status, fields: bad.body.errors.map((e: { field: string }) => e.field) }).toEqual({ status: 422, fields: ['task.substitutions.image_url'] });
    const addTasks = (tasks: unknown[]) => t.request({ method: 'POST', url: '/api/v1/projects/add_tasks', headers: { apikey: r.testKey }, body: { tasks } });
    const images = [{ project_uuid: missing, substitutions: { image_url: 'https://images.example.com/c.jpg' } }, { project_uuid: r.projectUuid, substitutions: { object: 'car' } }];
    const batch = await addTasks(images);
    expect(batch.status).toBe(201);
    expect(batch.body.data[0].external_image_url).toBe('https://images.example.com/c.jpg');
    const badBatch = await addTasks([...images, { project_uuid: missing, substitutions: { image_url: 'nope' } }]);
    expect({ status: badBatch.status, fields: badBatch.body.errors.map((e: { field: string }) => e.field) }).toEqual({ status: 422, fields: ['tasks.2.substitutions.image_url'] });
  });

  it('answers every read endpoint with validly shaped, deterministic fake data', async () => {
    const uuid = '22222222-2222-4222-8222-222222222222';
    const task = await get(`/api/v1/tasks/${uuid}`);
    expect(task.status).toBe(200);
    expect(Object.keys(task.body.data)).toEqual(['prompt', 'task_uuid', 'reward', 'callback_url', 'required_submissions', 'submission_count', 'checked_out_at', 'allowed_completion_time_seconds', 'external_image_url', 'submissions']);
    expect(task.body.data.task_uuid).toBe(uuid);
    expect(task.body.data.submissions).toHaveLength(3);
    expect((await get(`/api/v1/tasks/${uuid}`)).body).toEqual(task.body);

    const annotations = await get(`/api/v1/tasks/${uuid}/annotations?view=submissions`);
    expect(annotations.body.data).toMatchObject({ task_uuid: uuid, completed: true });
    expect(annotations.body.data.annotations[0]).toEqual({
      label: expect.any(String),
      center_x: expect.any(Number),
      center_y: expect.any(Number),
      width: expect.any(Number),
      height: expect.any(Number),
      support: 3,
      agreement: expect.any(Number),
    });
    expect(annotations.body.data.submissions).toHaveLength(3);

    const project = await get(`/api/v1/projects/${uuid}`);
    expect(project.body.data.uuid).toBe(uuid);
    expect(project.body.data.name).toContain('test key');

    const exported = await get(`/api/v1/projects/${uuid}/annotations`);
    expect(exported.status).toBe(200);
    expect(exported.body.data).toHaveLength(3);
    expect((await get(`/api/v1/projects/${uuid}/annotations`)).text).toBe(exported.text);

    const malformed = await get('/api/v1/tasks/not-a-uuid');
    expect(malformed.status).toBe(422);
    expect(malformed.body.errors[0].detail).toBe('worktask not found');
    const malformedProject = await get('/api/v1/projects/not-a-uuid');
    expect(malformedProject.status).toBe(422);
    expect(malformedProject.body.errors[0].detail).toBe('project not found');
  });

  it('reads a UUID in upper case as the same UUID, as a live key does', async () => {
    // A live key's answers name the row as PostgreSQL writes it, in lower case, whatever the path's case;
    // a test key echoed the path as sent and seeded its fake data from that spelling.
    const uuid = '3b2c1d0e-aaaa-4bbb-8ccc-dddddddddddd';
    for (const path of ['/api/v1/tasks/%s', '/api/v1/tasks/%s/annotations?view=submissions', '/api/v1/projects/%s', '/api/v1/projects/%s/annotations']) {
      const lower = await get(path.replace('%s', uuid));
      const upper = await get(path.replace('%s', uuid.toUpperCase()));
      expect([path, upper.status, upper.text]).toEqual([path, 200, lower.text]);
    }
  });

  it('never shows live data to a test key', async () => {
    const live = await aTask(t, r, { substitutions: { object: 'real' } });
    const seen = await get(`/api/v1/tasks/${live}`);
    expect(seen.body.data.prompt).not.toContain('real');
  });
});

describe('test keys while Redis is away', () => {
  let redis: PrivateRedis;
  let t: TestApp;
  let r: Requester;
  beforeAll(async () => {
    redis = await startPrivateRedis();
    t = await startTestApp({ REDIS_URL: redis.url }, { role: 'http' });
    r = await aRequester(t);
  });
  afterAll(async () => {
    await t.close();
    await redis.stop();
  });

  it('still refuse a reused Idempotency-Key with another body: the process remembers it', async () => {
    await redis.stop();
    const keyed = (object: string) => addTask(t, r.testKey, { project_uuid: r.projectUuid, substitutions: { object } }, { 'idempotency-key': 'k-away' });
    const first = await keyed('car');
    expect(first.status).toBe(201);
    expect((await keyed('bus')).body.errors).toEqual([{ field: 'Idempotency-Key', detail: expect.stringContaining('different body') }]);
    expect((await keyed('car')).body).toEqual(first.body);
  });
});
