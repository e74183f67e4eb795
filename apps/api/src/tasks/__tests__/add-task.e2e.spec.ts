import { startTestApp, type TestApp } from '../../../test/test-app';
import { aRequester, addTask, type Requester } from '../../../test/factories';

const LONG_VALUE = 'x'.repeat(10_001);
const IMAGE = 'https://images.example.com/street/1.jpg';

describe('add_task (POST /api/v1/projects/add_task)', () => {
  let t: TestApp;
  let r: Requester;
  beforeAll(async () => {
    t = await startTestApp();
    r = await aRequester(t);
  });
  afterAll(() => t.close());

  const taskCount = async () => Number((await t.db.query('SELECT count(*) FROM tasks'))[0].count);

  it('creates a task and answers every Task field, in order', async () => {
    const res = await addTask(t, r.liveKey, {
      project_uuid: r.projectUuid,
      substitutions: { object: 'car', image_url: IMAGE },
      callback_url: 'https://hooks.example.com/crowdbox',
      reward: 40,
      required_submissions: 2,
    });
    expect(res.status).toBe(201);
    const task = res.body.data;
    expect(Object.keys(task)).toEqual([
      'prompt',
      'task_uuid',
      'reward',
      'callback_url',
      'required_submissions',
      'submission_count',
      'checked_out_at',
      'allowed_completion_time_seconds',
      'external_image_url',
      'submissions',
    ]);
    expect(task).toEqual({
      prompt: `<p>Draw a box around every car in <b>the picture</b>.</p>`,
      task_uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      reward: 40,
      callback_url: 'https://hooks.example.com/crowdbox',
      required_submissions: 2,
      submission_count: 0,
      checked_out_at: null,
      allowed_completion_time_seconds: 600,
      external_image_url: IMAGE,
      submissions: [],
    });
    const got = await t.request({ method: 'GET', url: `/api/v1/tasks/${task.task_uuid}`, headers: { apikey: r.liveKey } });
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual(task);
  });

  it('falls back to the project defaults', async () => {
    const res = await addTask(t, r.liveKey, { project_uuid: r.projectUuid, substitutions: { object: 'bus' } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ reward: 25, required_submissions: 3, callback_url: null, external_image_url: null });
  });

  it('accepts the exact request the Elixir client ex_cogmint sends', async () => {
    const before = await taskCount();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/projects/add_task',
      headers: { apikey: r.liveKey, 'Content-Type': 'Application/json' },
      payload: JSON.stringify({ task: { project_uuid: r.projectUuid, substitutions: { object: 'tram' }, callback_url: null } }),
    });
    expect(res.statusCode).toBe(201);
    expect(JSON.parse(res.body).data.prompt).toContain('every tram in');
    expect(await taskCount()).toBe(before + 1);
  });

  it('takes project_uuid at the top level, and refuses two that differ', async () => {
    const top = await t.request({
      method: 'POST',
      url: '/api/v1/projects/add_task',
      headers: { apikey: r.liveKey },
      body: { project_uuid: r.projectUuid, task: { substitutions: { object: 'van' } } },
    });
    expect(top.status).toBe(201);
    const before = await taskCount();
    const both = await t.request({
      method: 'POST',
      url: '/api/v1/projects/add_task',
      headers: { apikey: r.liveKey },
      body: { project_uuid: r.projectUuid, task: { project_uuid: '00000000-0000-4000-8000-000000000000', substitutions: { object: 'van' } } },
    });
    expect(both.status).toBe(422);
    expect(both.body.errors).toEqual([{ field: 'task.project_uuid', detail: expect.stringContaining('differs') }]);
    expect(await taskCount()).toBe(before);
  });

  it('HTML-escapes substitution values and turns numbers and booleans into strings', async () => {
    const res = await addTask(t, r.liveKey, {
      project_uuid: r.projectUuid,
      substitutions: { object: '<script>alert("x")</script> & co', place: 42 },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.prompt).toBe(
      '<p>Draw a box around every &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co in <b>42</b>.</p>',
    );
    const yes = await addTask(t, r.liveKey, { project_uuid: r.projectUuid, substitutions: { object: true } });
    expect(yes.body.data.prompt).toContain('every true in');
  });

  it('turns an integer too large for a double into its exact digits, in add_task and add_tasks', async () => {
    const send = (url: string, body: string) =>
      t.request({ method: 'POST', url, headers: { apikey: r.liveKey, 'content-type': 'application/json' }, body });
    // Written as Python's json writes a 64-bit id; JSON.parse alone reads 12345678901234567000.
    const one = await send(
      '/api/v1/projects/add_task',
      `{"task":{"project_uuid":"${r.projectUuid}","substitutions":{"object":12345678901234567890,"place":-98765432109876543210}}}`,
    );
    expect(one.status).toBe(201);
    expect(one.body.data.prompt).toBe('<p>Draw a box around every 12345678901234567890 in <b>-98765432109876543210</b>.</p>');
    const batch = await send(
      '/api/v1/projects/add_tasks',
      `{"project_uuid":"${r.projectUuid}","tasks":[{"substitutions":{"object":2.50}},{"substitutions":{"object":9007199254740993}}]}`,
    );
    expect(batch.status).toBe(201);
    expect(batch.body.data.map((task: { prompt: string }) => task.prompt.match(/every (\S+) in/)?.[1])).toEqual(['2.5', '9007199254740993']);
    // Elsewhere a number is read as before: a reward this large is out of range, not a string.
    const reward = await send('/api/v1/projects/add_task', `{"task":{"project_uuid":"${r.projectUuid}","substitutions":{"object":"car"},"reward":12345678901234567890}}`);
    expect(reward.body.errors).toEqual([{ field: 'task.reward', detail: expect.stringContaining('must be an integer') }]);
    // A duplicate key (which JSON.parse allows) keeps the last value, as before.
    const twice = await send('/api/v1/projects/add_task', `{"task":{"project_uuid":"${r.projectUuid}","substitutions":{"object":12345678901234567890,"object":12345678901234567891}}}`);
    expect(twice.body.data.prompt).toContain('every 12345678901234567891 in');
  });

  it('names an unknown or missing template variable, and writes nothing', async () => {
    const before = await taskCount();
    const unknown = await addTask(t, r.liveKey, { project_uuid: r.projectUuid, substitutions: { object: 'car', colour: 'red' } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([{ field: 'task.substitutions.colour', detail: expect.stringContaining('not a variable') }]);
    const missing = await addTask(t, r.liveKey, { project_uuid: r.projectUuid, substitutions: {} });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual([{ field: 'task.substitutions.object', detail: expect.stringContaining('no value') }]);
    expect(await taskCount()).toBe(before);
  });

  it("follows the template's variables, not every variable the console declared", async () => {
    const owner = await aRequester(t, {
      template: '<p>Find every [[object]].</p>',
      variables: { extra: null, spare: 'kept', image_url: 'https://images.example.com/default.jpg' },
    });
    const added = await addTask(t, owner.liveKey, { project_uuid: owner.projectUuid, substitutions: { object: 'car' } });
    expect(added.status).toBe(201);
    // The image variable stays accepted and keeps its default, though the template does not use it.
    expect(added.body.data).toMatchObject({ prompt: '<p>Find every car.</p>', external_image_url: 'https://images.example.com/default.jpg' });
    const before = await taskCount();
    const extras = await addTask(t, owner.liveKey, { project_uuid: owner.projectUuid, substitutions: { object: 'car', extra: 'y', spare: 'z' } });
    expect(extras.status).toBe(422);
    const notAVariable = "is not a variable of the project's template; known variables: object, image_url";
    expect(extras.body.errors).toEqual([
      { field: 'task.substitutions.extra', detail: notAVariable },
      { field: 'task.substitutions.spare', detail: notAVariable },
    ]);
    expect(await taskCount()).toBe(before);
  });

  it('takes a null value as no value given: the default applies, else the variable has none', async () => {
    const defaulted = await addTask(t, r.liveKey, { project_uuid: r.projectUuid, substitutions: { object: 'car', place: null } });
    expect(defaulted.status).toBe(201);
    expect(defaulted.body.data.prompt).toBe('<p>Draw a box around every car in <b>the picture</b>.</p>');
    const before = await taskCount();
    const none = await addTask(t, r.liveKey, { project_uuid: r.projectUuid, substitutions: { object: null } });
    expect(none.status).toBe(422);
    expect(none.body.errors).toEqual([{ field: 'task.substitutions.object', detail: 'has no value and the project has no default for it' }]);
    const unknown = await addTask(t, r.liveKey, { project_uuid: r.projectUuid, substitutions: { object: 'car', colour: null } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([{ field: 'task.substitutions.colour', detail: expect.stringContaining('not a variable') }]);
    expect(await taskCount()).toBe(before);
  });

  it('names a missing variable called like an Object.prototype member, instead of failing with a 500', async () => {
    const owner = await aRequester(t, { template: '<p>[[constructor]] and [[toString]]</p>', variables: {} });
    const missing = await addTask(t, owner.liveKey, { project_uuid: owner.projectUuid, substitutions: {} });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toHaveLength(2);
    expect(missing.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'task.substitutions.constructor', detail: expect.stringContaining('no value') },
        { field: 'task.substitutions.toString', detail: expect.stringContaining('no value') },
      ]),
    );
    const given = await addTask(t, owner.liveKey, { project_uuid: owner.projectUuid, substitutions: { constructor: 'a <b>', toString: 'c' } });
    expect(given.status).toBe(201);
    expect(given.body.data.prompt).toBe('<p>a &lt;b&gt; and c</p>');
  });

  it.each([
    ['task.reward', 'from 0 to 100000', { reward: -1 }],
    ['task.reward', 'from 0 to 100000', { reward: 100001 }],
    ['task.reward', 'integer', { reward: 2.5 }],
    ['task.reward', 'integer', { reward: '25' }],
    ['task.required_submissions', 'from 1 to 100', { required_submissions: 0 }],
    ['task.required_submissions', 'from 1 to 100', { required_submissions: 101 }],
    ['task.allowed_completion_time_seconds', 'from 30 to 86400', { allowed_completion_time_seconds: 29 }],
    ['task.callback_url', 'http(s) URL', { callback_url: 'ftp://example.com/x' }],
    ['task.callback_url', 'http(s) URL', { callback_url: '/relative' }],
    ['task.external_image_url', 'http(s) URL', { external_image_url: 'javascript:alert(1)' }],
    ['task.substitutions.object', 'string, number or boolean', { substitutions: { object: { nested: true } } }],
    ['task.substitutions.object', 'string, number or boolean', { substitutions: { object: ['a'] } }],
    ['task.substitutions.object', 'at most 10000', { substitutions: { object: LONG_VALUE } }],
    ['task.substitutions', 'must be an object', { substitutions: 'object=car' }],
  ])('refuses a bad %s (%s) with a 422 and writes nothing', async (field, detail, fields) => {
    const before = await taskCount();
    const res = await addTask(t, r.liveKey, { project_uuid: r.projectUuid, substitutions: { object: 'car' }, ...fields });
    expect(res.status).toBe(422);
    expect(res.body.errors).toContainEqual({ field, detail: expect.stringContaining(detail) });
    expect(await taskCount()).toBe(before);
  });

  it('refuses more than 200 substitutions', async () => {
    const substitutions = Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`v${i}`, 'x']));
    const res = await addTask(t, r.liveKey, { project_uuid: r.projectUuid, substitutions });
    expect(res.status).toBe(422);
    expect(res.body.errors).toContainEqual({ field: 'task.substitutions', detail: 'must have at most 200 entries' });
  });

  it('takes the image from the project image variable, and checks it is a URL', async () => {
    const ok = await addTask(t, r.liveKey, { project_uuid: r.projectUuid, substitutions: { object: 'car', image_url: IMAGE } });
    expect(ok.body.data.external_image_url).toBe(IMAGE);
    const explicit = await addTask(t, r.liveKey, {
      project_uuid: r.projectUuid,
      external_image_url: 'https://cdn.example.com/other.png',
      substitutions: { object: 'car', image_url: IMAGE },
    });
    expect(explicit.body.data.external_image_url).toBe('https://cdn.example.com/other.png');
    const bad = await addTask(t, r.liveKey, { project_uuid: r.projectUuid, substitutions: { object: 'car', image_url: 'not a url' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([{ field: 'task.substitutions.image_url', detail: expect.stringContaining('http(s) URL') }]);
  });

  it('stores and answers URLs without the spaces around them, given or from the image variable', async () => {
    const given = await addTask(t, r.liveKey, {
      project_uuid: r.projectUuid,
      callback_url: ' https://hooks.example.com/crowdbox\n',
      external_image_url: `\t${IMAGE} `,
      substitutions: { object: 'car' },
    });
    expect(given.status).toBe(201);
    expect(given.body.data).toMatchObject({ callback_url: 'https://hooks.example.com/crowdbox', external_image_url: IMAGE });
    const fromVariable = await addTask(t, r.liveKey, { project_uuid: r.projectUuid, substitutions: { object: 'car', image_url: `  ${IMAGE}  ` } });
    expect(fromVariable.body.data.external_image_url).toBe(IMAGE);
    const stored = await t.db.query('SELECT callback_url, external_image_url FROM tasks WHERE id = ANY($1) ORDER BY created_at', [
      [given.body.data.task_uuid, fromVariable.body.data.task_uuid],
    ]);
    expect(stored).toEqual([
      { callback_url: 'https://hooks.example.com/crowdbox', external_image_url: IMAGE },
      { callback_url: null, external_image_url: IMAGE },
    ]);
  });

  describe('URL lengths', () => {
    // A presigned S3 URL with an STS session token: its query string is most of it.
    const presigned = (length: number) => {
      const start = 'https://bucket.s3.eu-west-1.amazonaws.com/street/1.jpg?X-Amz-Security-Token=';
      return start + 'IQoJb3JpZ2luX2VjE'.repeat(length).slice(0, length - start.length);
    };

    it('takes an image URL of up to 8,192 characters, given or from the image variable', async () => {
      for (const fields of [{ external_image_url: presigned(8192) }, { substitutions: { object: 'car', image_url: presigned(8192) } }]) {
        const res = await addTask(t, r.liveKey, { project_uuid: r.projectUuid, substitutions: { object: 'car' }, ...fields });
        expect(res.status).toBe(201);
        const got = await t.request({ method: 'GET', url: `/api/v1/tasks/${res.body.data.task_uuid}`, headers: { apikey: r.liveKey } });
        expect(got.body.data.external_image_url).toBe(presigned(8192));
      }
    });

    it('names the real reason an image variable is refused: its length, said of the image', async () => {
      const res = await addTask(t, r.liveKey, { project_uuid: r.projectUuid, substitutions: { object: 'car', image_url: presigned(8193) } });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([{ field: 'task.substitutions.image_url', detail: 'must be at most 8192 characters (it is the image)' }]);
    });

    it('takes a callback_url of 2,048 characters as sent, and refuses a longer one, non-ASCII counted encoded, writing nothing', async () => {
      const base = 'https://hooks.example.com/crowdbox?token=';
      const longest = base + 'k'.repeat(2048 - base.length);
      const ok = await addTask(t, r.liveKey, { project_uuid: r.projectUuid, substitutions: { object: 'car' }, callback_url: longest });
      expect(ok.status).toBe(201);
      expect((await t.db.query('SELECT url FROM webhook_endpoints WHERE url = $1', [longest])).length).toBe(1);
      const tasks = await taskCount();
      const endpoints = async () => Number((await t.db.query('SELECT count(*) FROM webhook_endpoints'))[0].count);
      const before = await endpoints();
      // 1,000 CJK characters are 9,000 once percent-encoded; before the limit counted them so, the
      // address's unique index refused the row (a 500). Not one character repeated: that compresses to fit.
      const cjk = Array.from({ length: 1000 }, (_, i) => String.fromCharCode(0x4e00 + ((i * 7919) % 20_000))).join('');
      for (const callback_url of [`${longest}k`, `https://hooks.example.com/${cjk}`]) {
        const res = await addTask(t, r.liveKey, { project_uuid: r.projectUuid, substitutions: { object: 'car' }, callback_url });
        expect(res.status).toBe(422);
        expect(res.body.errors).toEqual([{ field: 'task.callback_url', detail: expect.stringMatching(/^must be at most 2048 characters as sent/) }]);
      }
      expect([await taskCount(), await endpoints()]).toEqual([tasks, before]);
    });
  });

  it('ignores unknown JSON fields', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/projects/add_task',
      headers: { apikey: r.liveKey },
      body: { extra: 1, task: { project_uuid: r.projectUuid, substitutions: { object: 'car' }, colour: 'red', priority: 'high' } },
    });
    expect(res.status).toBe(201);
  });

  it('answers "task is a required field" when the body lacks task', async () => {
    for (const body of [{}, { task: null }, { tasks: [] }, [], 'null', '42']) {
      const res = await t.request({ method: 'POST', url: '/api/v1/projects/add_task', headers: { apikey: r.liveKey, 'content-type': 'application/json' }, body });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ errors: [{ field: 'task', detail: 'task is a required field' }] });
    }
    const empty = await t.request({ method: 'POST', url: '/api/v1/projects/add_task', headers: { apikey: r.liveKey } });
    expect(empty.body).toEqual({ errors: [{ field: 'task', detail: 'task is a required field' }] });
  });

  it('answers "project not found" for a missing, malformed or foreign project', async () => {
    const other = await aRequester(t);
    for (const project_uuid of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', other.projectUuid]) {
      const res = await addTask(t, r.liveKey, { project_uuid, substitutions: { object: 'car' } });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ errors: [{ field: 'root', detail: 'project not found' }] });
    }
  });

  it('requires a project_uuid somewhere', async () => {
    const res = await addTask(t, r.liveKey, { substitutions: { object: 'car' } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ field: 'task.project_uuid', detail: expect.stringContaining('required') }]);
  });
});
