// Demo data for npm start, created through the public HTTP API (the same calls the console makes), so it
// never bypasses validation and works on any database. Every step looks before it creates: running it
// again changes nothing.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export const DEMO_PASSWORD = 'crowdbox-demo';
export const DEMO_REQUESTER = { email: 'requester@crowdbox.local', name: 'Demo Requester' };
export const DEMO_WORKER = { email: 'worker@crowdbox.local', name: 'Demo Worker' };

export const DEMO_PROJECT = {
  name: 'demo-street-scenes',
  display_name: 'Street scenes: find the objects',
  display_short_description: 'Draw a tight box around every object of the named kind.',
  template: '<p>Draw a box around every <b>[[object]]</b> in the photo.</p>',
  variables: { object: 'car' },
  labels: ['car', 'person', 'bicycle'],
  default_required_submissions: 3,
  default_reward: 25,
  allowed_completion_time_seconds: 600,
};

/**
 * Seeds both users, the project and a live and a test key; returns what the banner prints. `database`
 * names the database the keys live in, so switching between embedded and external keeps both sets.
 */
export async function seedDemo(baseUrl, { keysFile, database }) {
  const api = client(baseUrl);
  const requester = await signUpOrLogIn(api, DEMO_REQUESTER);
  await signUpOrLogIn(api, DEMO_WORKER);
  const project = await ensureProject(api, requester.token);
  const keys = await ensureKeys(api, requester.token, keysFile, database);
  return { project, keys };
}

function client(baseUrl) {
  return async function call(method, path, { body, token, apikey } = {}) {
    const headers = { 'x-request-id': `seed-demo-${Date.now().toString(36)}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    if (apikey) headers.apikey = apikey;
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, json, text };
  };
}

function fail(what, res) {
  return new Error(`${what} failed: ${res.status} ${res.text.slice(0, 500)}`);
}

/**
 * Logs in first and signs up only when that fails: a sign-up refused for a taken email still counts
 * against the address's sign-ups per hour (docs/decisions.md, "Sign-ups are limited per client
 * address"), so signing up first would spend two on every start.
 */
async function signUpOrLogIn(api, user) {
  const login = await api('POST', '/api/session/login', { body: { email: user.email, password: DEMO_PASSWORD } });
  if (login.status === 200) return { token: login.json.data.token };
  if (login.status !== 401) throw fail(`login of ${user.email}`, login);
  const signup = await api('POST', '/api/session/signup', { body: { ...user, password: DEMO_PASSWORD } });
  if (signup.status === 201) return { token: signup.json.data.token };
  if (signup.status === 422) {
    throw new Error(
      `${user.email} exists but the demo password does not log in (${login.text.slice(0, 200)}); ` +
        `signup said: ${signup.text.slice(0, 200)}`,
    );
  }
  throw fail(`signup of ${user.email}`, signup);
}

async function ensureProject(api, token) {
  const list = await api('GET', '/api/console/projects', { token });
  if (list.status !== 200) throw fail('listing projects', list);
  const existing = list.json.data.find((project) => project.name === DEMO_PROJECT.name);
  if (existing) return existing;
  const created = await api('POST', '/api/console/projects', { token, body: DEMO_PROJECT });
  if (created.status !== 201) throw fail('creating the demo project', created);
  return created.json.data;
}

/**
 * Secrets are shown only when a key is created, so they are kept in `keysFile` (under the gitignored
 * .data/), one entry per database. A kept key is reused while GET /api/v1/ping still accepts it in the
 * right mode; otherwise (fresh database, revoked key) a new one is made and the file rewritten.
 */
async function ensureKeys(api, token, keysFile, database) {
  const file = readKeys(keysFile);
  const kept = file[database] ?? {};
  const keys = {};
  let changed = false;
  for (const mode of ['live', 'test']) {
    if (kept[mode] && (await keyWorks(api, kept[mode], mode))) {
      keys[mode] = kept[mode];
      continue;
    }
    keys[mode] = await createKey(api, token, mode);
    changed = true;
  }
  if (changed) {
    mkdirSync(dirname(keysFile), { recursive: true });
    writeFileSync(keysFile, `${JSON.stringify({ ...file, [database]: keys }, null, 2)}\n`, { mode: 0o600 });
  }
  return keys;
}

/**
 * A new key of `mode`. An account holds at most 20 unrevoked keys, and each run that lost the keys file
 * makes two more, so at that cap the oldest unrevoked key of the mode (the demo account's keys are the
 * seeding's own) is revoked first.
 */
async function createKey(api, token, mode) {
  let created = await api('POST', '/api/console/api_keys', { token, body: { mode } });
  if (created.status === 422) {
    const listed = await api('GET', '/api/console/api_keys', { token });
    if (listed.status !== 200) throw fail('listing the keys', listed);
    const unrevoked = listed.json.data.filter((key) => !key.revoked_at).sort((a, b) => a.created_at.localeCompare(b.created_at));
    const oldest = unrevoked.find((key) => key.mode === mode) ?? unrevoked[0];
    if (oldest) {
      const revoked = await api('DELETE', `/api/console/api_keys/${oldest.id}`, { token });
      if (revoked.status !== 200) throw fail(`revoking the old key ${oldest.prefix}`, revoked);
      created = await api('POST', '/api/console/api_keys', { token, body: { mode } });
    }
  }
  if (created.status !== 201) throw fail(`creating the ${mode} key`, created);
  return created.json.data.secret;
}

function readKeys(file) {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8'));
    return parsed && typeof parsed === 'object' ? parsed : {};
  } catch {
    return {};
  }
}

async function keyWorks(api, key, mode) {
  const res = await api('GET', '/api/v1/ping', { apikey: key });
  return res.status === 200 && res.json?.data?.mode === mode;
}
