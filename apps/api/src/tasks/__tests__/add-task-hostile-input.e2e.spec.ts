import { LIMITS, UNSTORABLE_TEXT_DETAIL } from '@crowdbox/contracts';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { aRequester, addTask, type Requester } from '../../../test/factories';

/** Input that passed validation and then broke or abused what add_task / add_tasks store and return. */
describe('add_task and add_tasks with hostile input', () => {
  let t: TestApp;
  let r: Requester;
  beforeAll(async () => {
    t = await startTestApp();
    r = await aRequester(t);
  });
  afterAll(() => t.close());

  const count = async (table: 'tasks' | 'webhook_endpoints') => Number((await t.db.query(`SELECT count(*) FROM ${table}`))[0].count);
  const addTasks = (key: string, body: unknown) => t.request({ method: 'POST', url: '/api/v1/projects/add_tasks', headers: { apikey: key }, body });

  describe('text PostgreSQL cannot store (NUL, lone surrogates)', () => {
    const cases = (bad: string): Array<[string, Record<string, unknown>]> => [
      ['task.substitutions.object', { substitutions: { object: `car${bad}` } }],
      [`task.substitutions.x${bad}`, { substitutions: { object: 'car', [`x${bad}`]: 'y' } }],
      ['task.callback_url', { substitutions: { object: 'car' }, callback_url: `https://hooks.example.com/new${bad}` }],
      ['task.external_image_url', { substitutions: { object: 'car' }, external_image_url: `https://img.example.com/${bad}.jpg` }],
    ];

    it.each([
      ['NUL', '\u0000'],
      ['a lone high surrogate', '\ud800'],
      ['a lone low surrogate', '\udfff'],
    ])('%s is a 422 naming the field, with a live or a test key, and nothing is written', async (_, bad) => {
      const before = { tasks: await count('tasks'), endpoints: await count('webhook_endpoints') };
      for (const key of [r.liveKey, r.testKey]) {
        for (const [field, fields] of cases(bad)) {
          const res = await addTask(t, key, { project_uuid: r.projectUuid, ...fields });
          expect([key === r.liveKey ? 'live' : 'test', res.status, res.body]).toEqual([
            key === r.liveKey ? 'live' : 'test',
            422,
            { errors: [{ field, detail: UNSTORABLE_TEXT_DETAIL }] },
          ]);
        }
      }
      expect({ tasks: await count('tasks'), endpoints: await count('webhook_endpoints') }).toEqual(before);
    });

    it('add_tasks refuses the whole batch: no task and no callback address is written', async () => {
      const before = { tasks: await count('tasks'), endpoints: await count('webhook_endpoints') };
      const res = await addTasks(r.liveKey, {
        project_uuid: r.projectUuid,
        tasks: [
          { substitutions: { object: 'car' }, callback_url: 'https://hooks.example.com/batch-fresh' },
          { substitutions: { object: 'bus\u0000' }, callback_url: 'https://hooks.example.com/batch-fresh' },
        ],
      });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ errors: [{ field: 'tasks.1.substitutions.object', detail: UNSTORABLE_TEXT_DETAIL }] });
      expect({ tasks: await count('tasks'), endpoints: await count('webhook_endpoints') }).toEqual(before);
    });

    it('stores a surrogate pair (an emoji) and other control characters as sent', async () => {
      const res = await addTask(t, r.liveKey, { project_uuid: r.projectUuid, substitutions: { object: 'car 😀\u0001' } });
      expect(res.status).toBe(201);
      const got = await t.request({ method: 'GET', url: `/api/v1/tasks/${res.body.data.task_uuid}`, headers: { apikey: r.liveKey } });
      expect(got.body.data.prompt).toContain('every car 😀\u0001 in');
    });
  });

  describe('a __proto__ substitution', () => {
    const body = (projectUuid: string) => `{"task":{"project_uuid":"${projectUuid}","substitutions":{"object":"car","__proto__":"x"}}}`;

    it('is a 422 like any key that is not a variable, with a live or a test key, and nothing is written', async () => {
      const before = await count('tasks');
      for (const apikey of [r.liveKey, r.testKey]) {
        const res = await t.request({
          method: 'POST',
          url: '/api/v1/projects/add_task',
          headers: { apikey, 'content-type': 'application/json' },
          body: body(r.projectUuid),
        });
        expect(res.status).toBe(422);
        expect(res.body.errors).toEqual([{ field: 'task.substitutions.__proto__', detail: expect.stringContaining('is not a variable') }]);
      }
      expect(await count('tasks')).toBe(before);
    });

    it('is plain text in a template, not a variable that could never be given', async () => {
      const owner = await aRequester(t, { template: '<p>[[__proto__]] [[object]]</p>', variables: {} });
      const res = await addTask(t, owner.liveKey, { project_uuid: owner.projectUuid, substitutions: { object: 'car' } });
      expect(res.status).toBe(201);
      expect(res.body.data.prompt).toBe('<p>[[__proto__]] car</p>');
    });
  });

  describe('a project UUID in upper case', () => {
    it('is the same project as in lower case: inside the task and at the top level, in add_tasks too', async () => {
      const upper = r.projectUuid.toUpperCase();
      const one = await t.request({
        method: 'POST',
        url: '/api/v1/projects/add_task',
        headers: { apikey: r.liveKey },
        body: { project_uuid: r.projectUuid, task: { project_uuid: upper, substitutions: { object: 'car' } } },
      });
      expect([one.status, one.body.errors]).toEqual([201, undefined]);
      const batch = await addTasks(r.liveKey, { project_uuid: upper, tasks: [{ project_uuid: r.projectUuid, substitutions: { object: 'car' } }] });
      expect([batch.status, batch.body.errors]).toEqual([201, undefined]);
    });

    it('replays the same Idempotency-Key, and gives a test key the same answer', async () => {
      const send = (apikey: string, projectUuid: string, headers: Record<string, string> = {}) =>
        addTask(t, apikey, { project_uuid: projectUuid, substitutions: { object: 'car' } }, headers);
      const key = { 'idempotency-key': `case-${Date.now()}` };
      const first = await send(r.liveKey, r.projectUuid, key);
      const again = await send(r.liveKey, r.projectUuid.toUpperCase(), key);
      expect(first.status).toBe(201);
      expect([again.status, again.body]).toEqual([201, first.body]);
      const lower = await send(r.testKey, r.projectUuid);
      const upper = await send(r.testKey, r.projectUuid.toUpperCase());
      expect(upper.body).toEqual(lower.body);
    });
  });

  describe('a prompt larger than the limit', () => {
    it('is a 422 on task.substitutions from a small request, with a live or a test key, in add_tasks too, and nothing is written', async () => {
      const owner = await aRequester(t, { template: `<p>${'[[a]]'.repeat(1000)}</p>`, variables: {} });
      const huge = { project_uuid: owner.projectUuid, substitutions: { a: '"'.repeat(10_000) } };
      const before = await count('tasks');
      for (const key of [owner.liveKey, owner.testKey]) {
        const res = await addTask(t, key, huge);
        expect(res.status).toBe(422);
        expect(res.body.errors).toEqual([{ field: 'task.substitutions', detail: expect.stringContaining('would make a prompt of 60000007 characters') }]);
        expect(res.body.errors[0].detail).toContain(`at most ${LIMITS.promptChars} characters`);
        const batch = await addTasks(key, { tasks: [{ ...huge, substitutions: { a: 'fine' } }, huge] });
        expect(batch.status).toBe(422);
        expect(batch.body.errors).toEqual([{ field: 'tasks.1.substitutions', detail: expect.stringContaining('would make a prompt') }]);
      }
      expect(await count('tasks')).toBe(before);
    });

    it('is counted after escaping: the largest prompt is accepted, one more character per placeholder is not', async () => {
      // 20 placeholders and "<p></p>": 7 + 20 × 6 × 8738 = 1,048,567 characters, 9 under the limit.
      const owner = await aRequester(t, { template: `<p>${'[[a]]'.repeat(20)}</p>`, variables: {} });
      const value = '"'.repeat(8738);
      const largest = await addTask(t, owner.liveKey, { project_uuid: owner.projectUuid, substitutions: { a: value } });
      expect(largest.status).toBe(201);
      expect(largest.body.data.prompt).toHaveLength(1_048_567);
      const over = await addTask(t, owner.liveKey, { project_uuid: owner.projectUuid, substitutions: { a: `${value}x` } });
      expect(over.status).toBe(422);
      expect(over.body.errors[0].detail).toContain('would make a prompt of 1048587 characters');
    });
  });

  describe('a batch whose prompts together pass the batch limit', () => {
    it('is a 422 on the first task past it (one error), nothing is written, and a batch just under it is accepted', async () => {
      // 1,000 prompts of 20,007 characters: 20 M in all, over 16 Mi, from a body of a few kilobytes.
      const owner = await aRequester(t, { template: `<p>${'x'.repeat(20_000)}</p>`, variables: {} });
      const tasks = Array.from({ length: 1000 }, () => ({ substitutions: {} }));
      const before = await count('tasks');
      for (const key of [owner.liveKey, owner.testKey]) {
        const res = await addTasks(key, { project_uuid: owner.projectUuid, tasks });
        expect(res.status).toBe(422);
        const first = Math.floor(LIMITS.batchPromptChars / 20_007);
        expect(res.body.errors).toEqual([{ field: `tasks.${first}.substitutions`, detail: expect.stringContaining(`past ${LIMITS.batchPromptChars} characters in all`) }]);
      }
      expect(await count('tasks')).toBe(before);
      const fits = await addTasks(owner.liveKey, { project_uuid: owner.projectUuid, tasks: tasks.slice(0, Math.floor(LIMITS.batchPromptChars / 20_007)) });
      expect(fits.status).toBe(201);
    });
  });

  describe('a value in a URL attribute of the template', () => {
    const template = '<p><a href="[[link]]">open</a> <img src="[[picture]]" alt="[[link]]"> [[link]]</p>';

    it.each(['javascript:alert(1)', 'JaVaScRiPt:alert(1)', ' java\tscript:alert(1)', 'vbscript:msgbox(1)'])(
      'never makes the stored or returned prompt carry a script URL (%j)',
      async (link) => {
        const owner = await aRequester(t, { template, variables: {} });
        for (const key of [owner.liveKey, owner.testKey]) {
          const res = await addTask(t, key, { project_uuid: owner.projectUuid, substitutions: { link, picture: link } });
          expect(res.status).toBe(201);
          const prompts = [res.body.data.prompt];
          if (key === owner.liveKey) {
            const got = await t.request({ method: 'GET', url: `/api/v1/tasks/${res.body.data.task_uuid}`, headers: { apikey: key } });
            prompts.push(got.body.data.prompt);
          }
          for (const prompt of prompts) {
            expect(prompt).not.toMatch(/(href|src)="[^"]*script:/i);
            expect(prompt).toContain('<a rel="noopener noreferrer nofollow" target="_blank">open</a>');
          }
        }
      },
    );

    it('keeps an http(s) URL, escaped', async () => {
      const owner = await aRequester(t, { template, variables: {} });
      const link = 'https://example.com/a?b=1&c="2"';
      const res = await addTask(t, owner.liveKey, { project_uuid: owner.projectUuid, substitutions: { link, picture: 'https://img.example.com/1.jpg' } });
      expect(res.status).toBe(201);
      expect(res.body.data.prompt).toContain('href="https://example.com/a?b=1&amp;c=&quot;2&quot;"');
      expect(res.body.data.prompt).toContain('src="https://img.example.com/1.jpg"');
    });
  });
});
