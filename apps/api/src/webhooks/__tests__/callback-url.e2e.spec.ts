import { randomUUID } from 'node:crypto';
import { aRequester, addTask, type Requester } from '../../../test/factories';
import { eventually } from '../../../test/eventually';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { WebhookReceiver } from '../../../test/webhook-receiver';

const CREDENTIALS = "must not contain a user name or password (they would never be sent); verify the webhook's signature instead";

describe('callback_url: what add_task accepts as a callback address', () => {
  let t: TestApp;
  let r: Requester;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    t = await startTestApp();
    r = await aRequester(t);
    receiver = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    await receiver.stop();
    await t.close();
  });

  const counts = async () =>
    (
      await t.db.query(
        `SELECT (SELECT count(*) FROM tasks)::int AS tasks, (SELECT count(*) FROM webhook_endpoints)::int AS endpoints,
                (SELECT count(*) FROM idempotency_keys)::int AS keys`,
      )
    )[0];
  const addTasks = (key: string, body: unknown) =>
    t.request({ method: 'POST', url: '/api/v1/projects/add_tasks', headers: { apikey: key }, body });

  it.each([
    'https://user:s3cret@hooks.example.com/x',
    'https://s3cret@hooks.example.com/x',
    'https://:s3cret@hooks.example.com/x',
    'HTTP://User:s3cret@Hooks.Example.com:80/x',
  ])('add_task refuses %s with a 422 on task.callback_url, and writes nothing', async (callback_url) => {
    const before = await counts();
    const res = await addTask(t, r.liveKey, { project_uuid: r.projectUuid, substitutions: { object: 'car' }, callback_url }, { 'Idempotency-Key': randomUUID() });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ errors: [{ field: 'task.callback_url', detail: CREDENTIALS }] });
    expect(res.text).not.toContain('s3cret');
    expect(await counts()).toEqual(before);
  });

  it('add_tasks refuses the batch, naming each task whose callback_url carries credentials, and writes nothing', async () => {
    const before = await counts();
    const res = await addTasks(r.liveKey, {
      project_uuid: r.projectUuid,
      tasks: [
        { substitutions: { object: 'ok' }, callback_url: 'https://hooks.example.com/fine' },
        { substitutions: { object: 'ok' }, callback_url: 'https://user:pass@hooks.example.com/x' },
        { substitutions: { object: 'ok' }, callback_url: 'ftp://hooks.example.com/x' },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { field: 'tasks.1.callback_url', detail: CREDENTIALS },
      { field: 'tasks.2.callback_url', detail: 'must be an absolute http(s) URL' },
    ]);
    expect(await counts()).toEqual(before);
  });

  it('gives a test key the same error', async () => {
    const one = await addTask(t, r.testKey, { project_uuid: r.projectUuid, substitutions: { object: 'car' }, callback_url: 'https://user:pass@hooks.example.com/x' });
    expect(one.status).toBe(422);
    expect(one.body).toEqual({ errors: [{ field: 'task.callback_url', detail: CREDENTIALS }] });
    const batch = await addTasks(r.testKey, { project_uuid: r.projectUuid, tasks: [{ substitutions: { object: 'car' }, callback_url: 'https://u:p@hooks.example.com/x' }] });
    expect(batch.status).toBe(422);
    expect(batch.body).toEqual({ errors: [{ field: 'tasks.0.callback_url', detail: CREDENTIALS }] });
  });

  it('registers addresses that differ only in the fragment as one, challenged once', async () => {
    const owner = await aRequester(t);
    const first = await addTask(t, owner.liveKey, { project_uuid: owner.projectUuid, substitutions: { object: 'a' }, callback_url: receiver.url('/frag#task-1') });
    const second = await addTask(t, owner.liveKey, { project_uuid: owner.projectUuid, substitutions: { object: 'b' }, callback_url: receiver.url('/frag#task-2') });
    expect([first.status, second.status]).toEqual([201, 201]);
    // The task keeps the callback_url it was given; the address is the one requests go to.
    expect(first.body.data.callback_url).toBe(receiver.url('/frag#task-1'));
    const endpoints = await eventually(async () => {
      const list = (await t.request({ method: 'GET', url: '/api/console/webhooks', headers: owner.auth })).body.data.endpoints;
      return list[0]?.state === 'confirmed' && list;
    });
    expect(endpoints).toEqual([expect.objectContaining({ url: receiver.url('/frag'), state: 'confirmed' })]);
    expect(receiver.at('/frag').map((req) => req.json?.event)).toEqual(['challenge']);
    const pointed = await t.db.query('SELECT DISTINCT callback_endpoint_id FROM tasks WHERE id = ANY($1)', [
      [first.body.data.task_uuid, second.body.data.task_uuid],
    ]);
    expect(pointed).toHaveLength(1);
  });

  it('never shows the password of an address registered before credentials were refused', async () => {
    const owner = await aRequester(t);
    const endpointId = randomUUID();
    await t.db.query(`INSERT INTO webhook_endpoints (id, account_id, url, state) VALUES ($1, $2, 'https://user:s3cret@hooks.example.com/old', 'failed')`, [
      endpointId,
      owner.accountId,
    ]);
    await t.db.query(
      `INSERT INTO webhook_events (id, account_id, endpoint_id, type, payload, state) VALUES ($1, $2, $3, 'task_completed', '{}', 'failed')`,
      [randomUUID(), owner.accountId, endpointId],
    );
    const settings = await t.request({ method: 'GET', url: '/api/console/webhooks', headers: owner.auth });
    expect(settings.body.data.endpoints.map((e: { url: string }) => e.url)).toEqual(['https://***@hooks.example.com/old']);
    expect(settings.text).not.toContain('s3cret');
    const events = await t.request({ method: 'GET', url: '/api/console/webhooks/events', headers: owner.auth });
    expect(events.body.data.map((e: { url: string }) => e.url)).toEqual(['https://***@hooks.example.com/old']);
    expect(events.text).not.toContain('s3cret');
  });
});
