import { startTestApp, type TestApp } from '../../../test/test-app';
import { aRequester, addTask, type Requester } from '../../../test/factories';
import { pgPool } from '../../database/prepared-statement';
import { IdempotencyPruning, PRUNE_IDEMPOTENCY_KEYS } from '../idempotency-pruning';
import { IDEMPOTENCY_WINDOW_HOURS } from '../idempotency';
import { tableReads } from '../../../test/query-plan';

describe('add_tasks and Idempotency-Key', () => {
  let t: TestApp;
  let r: Requester;
  beforeAll(async () => {
    t = await startTestApp();
    r = await aRequester(t);
  });
  afterAll(() => t.close());

  const taskCount = async () => Number((await t.db.query('SELECT count(*) FROM tasks'))[0].count);
  const addTasks = (body: unknown, headers: Record<string, string> = {}) =>
    t.request({ method: 'POST', url: '/api/v1/projects/add_tasks', headers: { apikey: r.liveKey, ...headers }, body });

  it('creates a batch of 1,000 in one call, in order', async () => {
    const before = await taskCount();
    const tasks = Array.from({ length: 1000 }, (_, i) => ({ substitutions: { object: `thing ${i}` }, reward: i % 50 }));
    const res = await addTasks({ project_uuid: r.projectUuid, tasks });
    expect(res.status).toBe(201);
    expect(res.body.data).toHaveLength(1000);
    expect(res.body.data[999].prompt).toContain('thing 999');
    expect(res.body.data[7].reward).toBe(7);
    expect(new Set(res.body.data.map((d: { task_uuid: string }) => d.task_uuid)).size).toBe(1000);
    expect(await taskCount()).toBe(before + 1000);
  });

  it('is all or nothing: one bad task names its index and nothing is written', async () => {
    const before = await taskCount();
    const shape = await addTasks({ project_uuid: r.projectUuid, tasks: [{ substitutions: { object: 'ok' } }, { substitutions: { object: 'ok' }, reward: -1 }] });
    expect(shape.status).toBe(422);
    expect(shape.body.errors).toEqual([{ field: 'tasks.1.reward', detail: 'must be an integer from 0 to 100000' }]);
    const tasks = [{ substitutions: { object: 'ok' } }, { substitutions: { nope: 'x', object: 'ok' } }, { substitutions: {} }];
    const res = await addTasks({ project_uuid: r.projectUuid, tasks });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { field: 'tasks.1.substitutions.nope', detail: expect.any(String) },
      { field: 'tasks.2.substitutions.object', detail: expect.any(String) },
    ]);
    expect(await taskCount()).toBe(before);
  });

  it('refuses an empty batch, more than 1,000 tasks, and a missing tasks field', async () => {
    expect((await addTasks({ project_uuid: r.projectUuid, tasks: [] })).body.errors[0].field).toBe('tasks');
    const tooMany = await addTasks({ project_uuid: r.projectUuid, tasks: Array.from({ length: 1001 }, () => ({ substitutions: { object: 'x' } })) });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors).toEqual([{ field: 'tasks', detail: 'tasks must hold at most 1000 tasks' }]);
    expect((await addTasks({ project_uuid: r.projectUuid })).body.errors).toEqual([{ field: 'tasks', detail: 'tasks is a required field' }]);
  });

  it('replays the first response for the same key and body, without a second task', async () => {
    const before = await taskCount();
    const task = { project_uuid: r.projectUuid, substitutions: { object: 'replayed' } };
    const first = await addTask(t, r.liveKey, task, { 'Idempotency-Key': 'order-42' });
    // The same body with other key order and spacing is the same request.
    const again = await t.request({
      method: 'POST',
      url: '/api/v1/projects/add_task',
      headers: { apikey: r.liveKey, 'idempotency-key': 'order-42', 'content-type': 'application/json' },
      body: `{ "task": { "substitutions": {"object":"replayed"}, "project_uuid": "${r.projectUuid}" } }`,
    });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(await taskCount()).toBe(before + 1);
  });

  it('refuses the same key with another body as a 422 on Idempotency-Key', async () => {
    await addTask(t, r.liveKey, { project_uuid: r.projectUuid, substitutions: { object: 'a' } }, { 'Idempotency-Key': 'k-2' });
    const before = await taskCount();
    const res = await addTask(t, r.liveKey, { project_uuid: r.projectUuid, substitutions: { object: 'b' } }, { 'Idempotency-Key': 'k-2' });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ field: 'Idempotency-Key', detail: expect.stringContaining('different body') }]);
    expect(await taskCount()).toBe(before);
  });

  it('refuses a reused key whose other body names a project it cannot have on Idempotency-Key, as a test key does', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const apikey of [r.liveKey, r.testKey]) {
      await addTask(t, apikey, { project_uuid: r.projectUuid, substitutions: { object: 'a' } }, { 'Idempotency-Key': 'k-project' });
      await addTasks({ project_uuid: r.projectUuid, tasks: [{ substitutions: { object: 'a' } }] }, { apikey, 'Idempotency-Key': 'k-projects' });
      const before = await taskCount();
      const one = await addTask(t, apikey, { project_uuid: missing, substitutions: { object: 'a' } }, { 'Idempotency-Key': 'k-project' });
      expect({ status: one.status, errors: one.body.errors }).toEqual({ status: 422, errors: [{ field: 'Idempotency-Key', detail: expect.stringContaining('different body') }] });
      const batch = await addTasks({ project_uuid: missing, tasks: [{ substitutions: { object: 'a' } }] }, { apikey, 'Idempotency-Key': 'k-projects' });
      expect({ status: batch.status, errors: batch.body.errors }).toEqual({ status: 422, errors: [{ field: 'Idempotency-Key', detail: expect.stringContaining('different body') }] });
      expect(await taskCount()).toBe(before);
    }
    // A new key (or none) with a missing project is still the project's 422.
    for (const headers of [{ 'Idempotency-Key': 'k-project-new' }, {} as Record<string, string>]) {
      const res = await addTask(t, r.liveKey, { project_uuid: missing, substitutions: { object: 'a' } }, headers);
      expect({ status: res.status, errors: res.body.errors }).toEqual({ status: 422, errors: [{ field: 'root', detail: 'project not found' }] });
      const batch = await addTasks({ project_uuid: missing, tasks: [{ substitutions: { object: 'a' } }] }, headers);
      expect({ status: batch.status, errors: batch.body.errors }).toEqual({ status: 422, errors: [{ field: 'root', detail: 'project not found' }] });
    }
  });

  it('replays the first response byte for byte, fields in the seed spec\'s order', async () => {
    const task = { project_uuid: r.projectUuid, substitutions: { object: 'ordered' } };
    const first = await addTask(t, r.liveKey, task, { 'Idempotency-Key': 'same-bytes' });
    const again = await addTask(t, r.liveKey, task, { 'Idempotency-Key': 'same-bytes' });
    expect(again.status).toBe(201);
    expect(Object.keys(again.body.data)).toEqual(Object.keys(first.body.data));
    expect(again.text).toBe(first.text);
  });

  it('refuses a reused key before it registers the other body\'s callback address', async () => {
    await addTask(t, r.liveKey, { project_uuid: r.projectUuid, substitutions: { object: 'a' } }, { 'Idempotency-Key': 'k-callback' });
    const url = 'https://hooks.example.com/never-registered';
    const res = await addTask(t, r.liveKey, { project_uuid: r.projectUuid, substitutions: { object: 'b' }, callback_url: url }, { 'Idempotency-Key': 'k-callback' });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].field).toBe('Idempotency-Key');
    expect(await t.db.query('SELECT 1 FROM webhook_endpoints WHERE url = $1', [url])).toEqual([]);
  });

  it('refuses a reused key before it registers the other body\'s callback address when the two requests run at once', async () => {
    const key = 'k-callback-at-once';
    // A stand-in for a first request still in flight: this transaction holds the key's lock, so both
    // requests get past the stored-response look and wait for the lock together.
    const holder = await pgPool(t.db).connect();
    await holder.query('BEGIN');
    await holder.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`${r.accountId}:${key}`]);
    const urls = ['https://hooks.example.com/at-once-a', 'https://hooks.example.com/at-once-b'];
    const requests = urls.map((url, i) =>
      addTask(t, r.liveKey, { project_uuid: r.projectUuid, substitutions: { object: `at once ${i}` }, callback_url: url }, { 'Idempotency-Key': key }),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    await holder.query('COMMIT');
    holder.release();
    const results = await Promise.all(requests);
    expect(results.map((res) => res.status).sort()).toEqual([201, 422]);
    for (const [i, res] of results.entries()) {
      const registered = await t.db.query('SELECT 1 FROM webhook_endpoints WHERE url = $1', [urls[i]]);
      expect({ status: res.status, registered: registered.length }).toEqual({ status: res.status, registered: res.status === 201 ? 1 : 0 });
    }
  });

  it('replays the first response after the template changed, instead of checking the old body again', async () => {
    const owner = await aRequester(t);
    const task = { project_uuid: owner.projectUuid, substitutions: { object: 'before the change' } };
    const first = await addTask(t, owner.liveKey, task, { 'Idempotency-Key': 'template-changed' });
    const patched = await t.request({
      method: 'PATCH',
      url: `/api/console/projects/${owner.projectUuid}`,
      headers: owner.auth,
      body: { template: '<p>[[object]] in [[place]], [[colour]]</p>' },
    });
    expect(patched.status).toBe(200);
    // The body is now short of [[colour]], but it is the request that already made a task.
    const again = await addTask(t, owner.liveKey, task, { 'Idempotency-Key': 'template-changed' });
    expect(again.status).toBe(201);
    expect(again.body.data.task_uuid).toBe(first.body.data.task_uuid);
    const fresh = await addTask(t, owner.liveKey, task, { 'Idempotency-Key': 'after-the-change' });
    expect(fresh.status).toBe(422);
    expect(fresh.body.errors).toEqual([{ field: 'task.substitutions.colour', detail: expect.any(String) }]);
  });

  it('creates exactly one task when the same key arrives ten times at once', async () => {
    const before = await taskCount();
    const task = { project_uuid: r.projectUuid, substitutions: { object: 'racing' } };
    const results = await Promise.all(Array.from({ length: 10 }, () => addTask(t, r.liveKey, task, { 'Idempotency-Key': 'race' })));
    expect(results.map((res) => res.status)).toEqual(Array(10).fill(201));
    expect(new Set(results.map((res) => res.body.data.task_uuid)).size).toBe(1);
    expect(await taskCount()).toBe(before + 1);
  });

  it('replays batches too, and keys are per account', async () => {
    const body = { project_uuid: r.projectUuid, tasks: [{ substitutions: { object: 'x' } }, { substitutions: { object: 'y' } }] };
    const first = await addTasks(body, { 'Idempotency-Key': 'batch-1' });
    const again = await addTasks(body, { 'Idempotency-Key': 'batch-1' });
    expect(again.body).toEqual(first.body);
    const other = await aRequester(t);
    const theirs = await addTask(t, other.liveKey, { project_uuid: other.projectUuid, substitutions: { object: 'x' } }, { 'Idempotency-Key': 'batch-1' });
    expect(theirs.status).toBe(201);
  });

  it('forgets a key after 24 hours', async () => {
    const task = { project_uuid: r.projectUuid, substitutions: { object: 'old' } };
    const first = await addTask(t, r.liveKey, task, { 'Idempotency-Key': 'yesterday' });
    await t.db.query("UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = 'yesterday'");
    const later = await addTask(t, r.liveKey, task, { 'Idempotency-Key': 'yesterday' });
    expect(later.status).toBe(201);
    expect(later.body.data.task_uuid).not.toBe(first.body.data.task_uuid);
  });

  it('still replays a key used 23 hours ago, within its 24 hours', async () => {
    const task = { project_uuid: r.projectUuid, substitutions: { object: 'recent' } };
    const first = await addTask(t, r.liveKey, task, { 'Idempotency-Key': 'this-morning' });
    await t.db.query("UPDATE idempotency_keys SET created_at = now() - interval '23 hours' WHERE key = 'this-morning'");
    const again = await addTask(t, r.liveKey, task, { 'Idempotency-Key': 'this-morning' });
    expect(again.status).toBe(201);
    expect(again.body.data.task_uuid).toBe(first.body.data.task_uuid);
  });

  it('refuses an over-long key', async () => {
    const res = await addTask(t, r.liveKey, { project_uuid: r.projectUuid, substitutions: { object: 'x' } }, { 'Idempotency-Key': 'k'.repeat(256) });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].field).toBe('Idempotency-Key');
  });

  it('refuses an empty key, writing nothing', async () => {
    const before = await taskCount();
    const res = await addTask(t, r.liveKey, { project_uuid: r.projectUuid, substitutions: { object: 'x' } }, { 'Idempotency-Key': '' });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ field: 'Idempotency-Key', detail: 'must be 1 to 255 characters' }]);
    expect(await taskCount()).toBe(before);
  });
});

describe('Idempotency-Key when no other database connection is free', () => {
  let t: TestApp;
  let r: Requester;
  beforeAll(async () => {
    t = await startTestApp({ DATABASE_POOL_SIZE: '2', DATABASE_CONNECT_TIMEOUT_MS: '1000' });
    r = await aRequester(t);
  });
  afterAll(() => t.close());

  it('registers a new callback address on its transaction\'s own connection, not while holding one connection and waiting for another', async () => {
    const busy = await pgPool(t.db).connect();
    try {
      const task = { project_uuid: r.projectUuid, substitutions: { object: 'car' }, callback_url: 'https://hooks.example.com/pool' };
      const res = await addTask(t, r.liveKey, task, { 'Idempotency-Key': 'one-connection-left' });
      expect(res.status).toBe(201);
    } finally {
      busy.release();
    }
    expect(await t.db.query(`SELECT 1 FROM webhook_endpoints WHERE url = 'https://hooks.example.com/pool'`)).toHaveLength(1);
  });
});

describe('stale Idempotency-Key records are deleted', () => {
  let t: TestApp;
  let r: Requester;
  beforeAll(async () => {
    t = await startTestApp();
    r = await aRequester(t);
  });
  afterAll(() => t.close());

  it('deletes records past their 24 hours, a batch at a time, and keeps the fresh ones replaying', async () => {
    const task = { project_uuid: r.projectUuid, substitutions: { object: 'kept' } };
    const fresh = await addTask(t, r.liveKey, task, { 'Idempotency-Key': 'fresh' });
    await t.db.query(
      `INSERT INTO idempotency_keys (account_id, key, request_hash, response_status, response_body, created_at)
       SELECT $1, 'old-' || g, 'h', 201, '{}', now() - interval '25 hours' FROM generate_series(1, 2500) AS g`,
      [r.accountId],
    );
    expect(await t.app.get(IdempotencyPruning).prune()).toBe(2500);
    expect(Number((await t.db.query('SELECT count(*) AS n FROM idempotency_keys'))[0].n)).toBe(1);
    const again = await addTask(t, r.liveKey, task, { 'Idempotency-Key': 'fresh' });
    expect(again.body.data.task_uuid).toBe(fresh.body.data.task_uuid);
  });
  it('reads a batch through the creation time index, not by walking the table', async () => {
    // Many fresh records and a few stale ones: without the index every batch scanned the whole table.
    await t.db.query(
      `INSERT INTO idempotency_keys (account_id, key, request_hash, response_status, response_body, created_at)
       SELECT $1, 'plan-' || g, 'h', 201, '{}', now() - CASE WHEN g % 100 = 0 THEN interval '25 hours' ELSE interval '1 hour' END
         FROM generate_series(1, 20000) AS g`,
      [r.accountId],
    );
    await t.db.query('ANALYZE idempotency_keys');
    expect(await tableReads(t.db, PRUNE_IDEMPOTENCY_KEYS, [IDEMPOTENCY_WINDOW_HOURS, 1000], 'idempotency_keys')).toContain('ix_idempotency_keys_created_at');
    expect(await tableReads(t.db, PRUNE_IDEMPOTENCY_KEYS, [IDEMPOTENCY_WINDOW_HOURS, 1000], 'idempotency_keys')).not.toContain('Seq Scan');
    expect(await t.app.get(IdempotencyPruning).prune()).toBe(200);
  });
});
