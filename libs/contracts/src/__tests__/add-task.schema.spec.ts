import { addTaskBodySchema, addTasksBodySchema } from '../requester/add-task.schema';
import { LIMITS } from '../limits';
import { CALLBACK_URL_CREDENTIALS_DETAIL, CALLBACK_URL_LENGTH_DETAIL, UNSTORABLE_TEXT_DETAIL } from '../schema-helpers';

describe('add_task body schema', () => {
  it('turns numbers and booleans into strings', () => {
    const parsed = addTaskBodySchema.parse({ task: { substitutions: { n: 4.5, b: false, s: 'x' } } });
    expect(parsed.task.substitutions).toEqual({ n: '4.5', b: 'false', s: 'x' });
  });

  it('names the missing task', () => {
    const result = addTaskBodySchema.safeParse({});
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['task', 'task is a required field']]);
  });

  it('answers a null task or tasks like an absent one', () => {
    const issues = (schema: typeof addTaskBodySchema | typeof addTasksBodySchema, body: unknown) =>
      schema.safeParse(body).error?.issues.map((i) => [i.path.join('.'), i.message]);
    expect(issues(addTaskBodySchema, { task: null })).toEqual([['task', 'task is a required field']]);
    expect(issues(addTasksBodySchema, { tasks: null })).toEqual([['tasks', 'tasks is a required field']]);
    // Not a field of its own: an element of the batch is still "a task object" that is not one.
    expect(issues(addTasksBodySchema, { tasks: [null] })).toEqual([['tasks.0', 'task must be an object']]);
  });

  it('keeps a null substitution as "no value given", and refuses objects and arrays', () => {
    expect(addTaskBodySchema.parse({ task: { substitutions: { a: null, b: 'x' } } }).task.substitutions).toEqual({ a: null, b: 'x' });
    const result = addTaskBodySchema.safeParse({ task: { substitutions: { a: null, o: {}, l: [] } } });
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['task.substitutions.o', 'must be a string, number or boolean'],
      ['task.substitutions.l', 'must be a string, number or boolean'],
    ]);
  });

  it('treats null optional fields as absent', () => {
    const parsed = addTaskBodySchema.parse({ task: { callback_url: null, reward: null, project_uuid: 'p' } });
    expect(parsed.task.callback_url).toBeNull();
    expect(parsed.task.reward).toBeNull();
  });

  it('refuses NaN-like and infinite numbers as values', () => {
    const result = addTaskBodySchema.safeParse({ task: { substitutions: { x: { a: 1 } } } });
    expect(result.error?.issues[0].path).toEqual(['task', 'substitutions', 'x']);
  });
});

describe('project_uuid', () => {
  it('is lower-cased wherever it is given, so case never makes two UUIDs differ', () => {
    const upper = 'AB5C2E1F-0D4A-4B8E-9F1A-2B3C4D5E6F70';
    const parsed = addTaskBodySchema.parse({ project_uuid: upper, task: { project_uuid: upper } });
    expect([parsed.project_uuid, parsed.task.project_uuid]).toEqual([upper.toLowerCase(), upper.toLowerCase()]);
    const batch = addTasksBodySchema.parse({ project_uuid: upper, tasks: [{ project_uuid: upper }] });
    expect([batch.project_uuid, batch.tasks[0].project_uuid]).toEqual([upper.toLowerCase(), upper.toLowerCase()]);
  });
});

describe('a __proto__ substitution', () => {
  it('is refused like a key that is not a variable, instead of being dropped', () => {
    const result = addTaskBodySchema.safeParse(JSON.parse('{"task":{"substitutions":{"object":"car","__proto__":"x"}}}'));
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['task.substitutions.__proto__', expect.stringMatching(/^is not a variable of the project's template/)],
    ]);
  });
});

describe('callback_url', () => {
  const issues = (callback_url: unknown) =>
    addTaskBodySchema.safeParse({ task: { callback_url } }).error?.issues.map((i) => [i.path.join('.'), i.message]) ?? [];

  it('refuses a user name or a password, with one error that says to verify the signature instead', () => {
    for (const url of ['https://user:pass@hooks.example.com/x', 'https://user@hooks.example.com/x', 'http://:secret@hooks.example.com/x']) {
      expect([url, issues(url)]).toEqual([url, [['task.callback_url', CALLBACK_URL_CREDENTIALS_DETAIL]]]);
    }
    expect(CALLBACK_URL_CREDENTIALS_DETAIL).toMatch(/user name or password.*verify the webhook's signature instead/);
  });

  it('gives a URL that is no http(s) URL only the http(s) error, credentials or not', () => {
    expect(issues('ftp://user:pass@example.com/x')).toEqual([['task.callback_url', 'must be an absolute http(s) URL']]);
    expect(issues('not a url')).toEqual([['task.callback_url', 'must be an absolute http(s) URL']]);
  });

  it('is at most 2,048 characters as sent, characters outside ASCII counted percent-encoded', () => {
    const base = 'https://hooks.example.com/';
    expect(issues(base + 'a'.repeat(LIMITS.callbackUrlChars - base.length))).toEqual([]);
    expect(issues(base + 'a'.repeat(LIMITS.callbackUrlChars - base.length + 1))).toEqual([['task.callback_url', CALLBACK_URL_LENGTH_DETAIL]]);
    // 700 characters given, 6,300 sent (each is three UTF-8 bytes, %XX each).
    expect(issues(base + '漢'.repeat(700))).toEqual([['task.callback_url', CALLBACK_URL_LENGTH_DETAIL]]);
    expect(CALLBACK_URL_LENGTH_DETAIL).toMatch(/^must be at most 2048 characters as sent/);
    // Past every URL's limit, the length is the one error.
    expect(issues(base + 'a'.repeat(LIMITS.urlChars))).toEqual([['task.callback_url', 'must be at most 8192 characters']]);
  });

  it('is read without the spaces around it, as the URL parser reads it', () => {
    const parsed = addTaskBodySchema.parse({ task: { callback_url: ' \thttps://hooks.example.com/x \n', external_image_url: '  https://img.example.com/a.jpg ' } });
    expect(parsed.task).toMatchObject({ callback_url: 'https://hooks.example.com/x', external_image_url: 'https://img.example.com/a.jpg' });
    expect(issues('   ')).toEqual([['task.callback_url', 'must be an absolute http(s) URL']]);
  });

  it('accepts a plain address, and an empty "@" that carries no credentials', () => {
    expect(issues('https://hooks.example.com/x?a=1')).toEqual([]);
    expect(issues('https://@hooks.example.com/x')).toEqual([]);
  });
});

describe('external_image_url', () => {
  it('takes a presigned URL of up to 8,192 characters, and says a longer one is too long', () => {
    const presigned = `https://bucket.s3.eu-west-1.amazonaws.com/a.jpg?X-Amz-Security-Token=`;
    const url = (length: number) => presigned + 'A'.repeat(length - presigned.length);
    expect(addTaskBodySchema.parse({ task: { external_image_url: url(LIMITS.urlChars) } }).task.external_image_url).toHaveLength(8192);
    const result = addTaskBodySchema.safeParse({ task: { external_image_url: url(LIMITS.urlChars + 1) } });
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['task.external_image_url', 'must be at most 8192 characters']]);
  });
});

describe('text PostgreSQL cannot store', () => {
  const issues = (task: Record<string, unknown>) =>
    addTaskBodySchema.safeParse({ task }).error?.issues.map((i) => [i.path.join('.'), i.message]) ?? [];

  it.each([
    ['a NUL', 'a\u0000b'],
    ['a lone high surrogate', 'a\ud800b'],
    ['a lone low surrogate', 'a\udc00b'],
    ['a pair in the wrong order', '\udc00\ud800'],
  ])('refuses %s in every stored string, naming the field', (_, bad) => {
    expect(issues({ substitutions: { object: bad } })).toEqual([['task.substitutions.object', UNSTORABLE_TEXT_DETAIL]]);
    expect(issues({ substitutions: { [bad]: 'x' } })).toEqual([[`task.substitutions.${bad}`, UNSTORABLE_TEXT_DETAIL]]);
    expect(issues({ callback_url: `https://hooks.example.com/${bad}` })).toEqual([['task.callback_url', UNSTORABLE_TEXT_DETAIL]]);
    expect(issues({ external_image_url: `https://img.example.com/${bad}.jpg` })).toEqual([['task.external_image_url', UNSTORABLE_TEXT_DETAIL]]);
  });

  it('accepts a surrogate pair (an emoji) and other control characters', () => {
    expect(issues({ substitutions: { object: 'a 😀 b\u0001\t', 'k😀': 'x' }, callback_url: 'https://hooks.example.com/😀' })).toEqual([]);
  });
});
