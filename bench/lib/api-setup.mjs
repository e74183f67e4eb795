// Sets up a requester through the real HTTP API, the way apps/api/test/factories.ts does.

export const DEFAULT_PROJECT = {
  name: 'street-scenes',
  display_name: 'Find the cars',
  display_short_description: 'Draw a box around every car.',
  template: '<p>Draw a box around every [[object]] in <b>[[place]]</b>.</p>',
  labels: ['car', 'person'],
  variables: { place: 'the picture' },
  default_required_submissions: 3,
  default_reward: 25,
  allowed_completion_time_seconds: 600,
};

/** add_tasks' batch: the most tasks one request may carry. */
export const ADD_TASKS_BATCH = 1000;

/** One JSON request, checked: throws unless the status is `expect` (a number or a list); resolves to the body. */
export async function call(baseUrl, method, path, { headers = {}, body, expect = 201 } = {}) {
  const res = await fetch(baseUrl + path, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const expected = [expect].flat();
  if (!expected.includes(res.status)) throw new Error(`${method} ${path}: expected ${expected.join(' or ')}, got ${res.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text);
}

/**
 * Signs up, creates one project per name in `projectNames` and a live API key.
 * Resolves to { token, liveKey, projects: { [name]: { uuid } } }.
 */
export async function setUpRequester(baseUrl, projectNames) {
  const email = `bench-${Date.now().toString(36)}@example.com`;
  const signup = await call(baseUrl, 'POST', '/api/session/signup', {
    body: { email, password: 'correct horse battery', name: 'Bench User' },
  });
  const auth = { authorization: `Bearer ${signup.data.token}` };
  const projects = {};
  for (const name of projectNames) {
    const created = await call(baseUrl, 'POST', '/api/console/projects', { headers: auth, body: { ...DEFAULT_PROJECT, name } });
    projects[name] = { uuid: created.data.uuid };
  }
  const key = await call(baseUrl, 'POST', '/api/console/api_keys', { headers: auth, body: { mode: 'live' } });
  return { token: signup.data.token, liveKey: key.data.secret, projects };
}

/**
 * Signs up `count` users (workers) through the API, `concurrency` at a time. Resolves to
 * [{ userId, token, auth }] in sign-up order.
 */
export async function signUpUsers(baseUrl, count, { prefix = 'bench-worker', concurrency = 8 } = {}) {
  const stamp = Date.now().toString(36);
  const users = new Array(count);
  let next = 0;
  const one = async () => {
    while (next < count) {
      const i = next++;
      const res = await call(baseUrl, 'POST', '/api/session/signup', {
        // Distinct people sign up from distinct addresses: each worker's comes as from a proxy on this host
        // (TRUST_PROXY believes loopback by default), or the API's 20 sign-ups per address would stop it.
        headers: { 'x-forwarded-for': `198.${18 + ((i >> 16) & 1)}.${(i >> 8) & 255}.${i & 255}` },
        body: { email: `${prefix}-${stamp}-${i}@example.com`, password: 'correct horse battery', name: `Bench Worker ${i}` },
      });
      users[i] = { userId: res.data.user.id, token: res.data.token, auth: { authorization: `Bearer ${res.data.token}` } };
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, one));
  return users;
}

/**
 * Adds `count` tasks to a project through POST /api/v1/projects/add_tasks in batches of up to 1,000
 * (`concurrency` batches in flight), each with `callbackUrl` when one is given (null: none). Resolves
 * to the number of tasks answered 201.
 */
export async function addTasksInBulk(
  baseUrl,
  { liveKey, projectUuid, count, requiredSubmissions, callbackUrl, batchSize = ADD_TASKS_BATCH, concurrency = 2 },
) {
  const callback = callbackUrl === undefined ? {} : { callback_url: callbackUrl };
  let left = count;
  let added = 0;
  const one = async () => {
    while (left > 0) {
      const n = Math.min(batchSize, left);
      left -= n;
      const tasks = Array.from({ length: n }, () => ({ substitutions: { object: 'car' }, required_submissions: requiredSubmissions, ...callback }));
      await call(baseUrl, 'POST', '/api/v1/projects/add_tasks', { headers: { apikey: liveKey }, body: { project_uuid: projectUuid, tasks } });
      added += n;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, one));
  return added;
}

/** One request, checked: used as a smoke test before a suite is timed. */
export async function expectStatus(url, { method = 'POST', headers, body, status }) {
  const res = await fetch(url, { method, headers, body });
  const text = await res.text();
  if (res.status !== status) throw new Error(`${method} ${url}: expected ${status}, got ${res.status}: ${text.slice(0, 500)}`);
  return text;
}
