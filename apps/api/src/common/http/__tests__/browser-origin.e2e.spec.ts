import { aRequester, aTask, signUp, type Requester } from '../../../../test/factories';
import { startTestApp, type TestApp } from '../../../../test/test-app';

describe('writes to the session cookie’s routes from other sites (CSRF)', () => {
  let t: TestApp;
  let r: Requester;
  const credentials = { email: 'csrf-victim@example.com', password: 'correct horse battery' };
  beforeAll(async () => {
    t = await startTestApp();
    r = await aRequester(t);
    await signUp(t, credentials);
  });
  afterAll(() => t.close());

  const logIn = (headers: Record<string, string>, body: string = JSON.stringify(credentials)) =>
    t.request({ method: 'POST', url: '/api/session/login', headers: { host: 'crowdbox.test', ...headers }, body });

  it('refuses a log-in posted by another site’s form or script, and sets no cookie', async () => {
    // <form enctype="text/plain"> posting a field named like a JSON object.
    const form = await logIn({ 'content-type': 'text/plain', 'sec-fetch-site': 'cross-site' });
    expect(form.status).toBe(403);
    expect(form.body).toEqual({ errors: [{ field: 'root', detail: expect.stringContaining('other sites') }] });
    expect(form.headers['set-cookie']).toBeUndefined();
    expect((await logIn({ 'content-type': 'application/json', 'sec-fetch-site': 'same-site' })).status).toBe(403);
    // An older browser with no Sec-Fetch-Site still sends Origin.
    expect((await logIn({ 'content-type': 'application/json', origin: 'https://evil.example' })).status).toBe(403);
    expect((await logIn({ 'content-type': 'application/json', origin: 'null' })).status).toBe(403);
    // The router decodes the path before it matches: an encoded prefix reaches the same route.
    const encoded = await t.request({
      method: 'POST',
      url: '/api/%73ession/login',
      headers: { host: 'crowdbox.test', 'content-type': 'text/plain', 'sec-fetch-site': 'cross-site' },
      body: JSON.stringify(credentials),
    });
    expect(encoded.status).toBe(403);
    expect(encoded.headers['set-cookie']).toBeUndefined();
  });

  it('refuses a body not declared JSON, which a form can send and a page cannot declare without a preflight', async () => {
    const plain = await logIn({ 'content-type': 'text/plain' });
    expect(plain.status).toBe(415);
    expect(plain.body).toEqual({ errors: [{ field: 'body', detail: expect.stringContaining('application/json') }] });
    expect(plain.headers['set-cookie']).toBeUndefined();
  });

  it('takes the app’s own requests, programs without those headers, and the requester API’s any declared type', async () => {
    expect((await logIn({ 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', origin: 'https://crowdbox.test' })).status).toBe(200);
    expect((await logIn({ 'content-type': 'Application/JSON; charset=utf-8', origin: 'https://crowdbox.test' })).status).toBe(200);
    expect((await logIn({ 'content-type': 'application/json' })).status).toBe(200);
    const task = { task: { project_uuid: r.projectUuid, substitutions: { object: 'car' } } };
    const curl = await t.request({
      method: 'POST',
      url: '/api/v1/projects/add_task',
      headers: { apikey: r.liveKey, 'content-type': 'application/x-www-form-urlencoded' },
      body: JSON.stringify(task),
    });
    expect(curl.status).toBe(201);
  });

  it('refuses a bodiless console write from another site, and changes nothing', async () => {
    const cancel = await t.request({
      method: 'POST',
      url: `/api/console/projects/${r.projectUuid}/cancel_outstanding`,
      headers: { cookie: `cb_session=${r.token}`, 'sec-fetch-site': 'same-site' },
    });
    expect(cancel.status).toBe(403);
    const [counts] = await t.db.query('SELECT count(*)::int AS cancelled FROM tasks WHERE project_id = $1 AND cancelled_at IS NOT NULL', [r.projectUuid]);
    expect(counts.cancelled).toBe(0);
    const own = await t.request({
      method: 'POST',
      url: `/api/console/projects/${r.projectUuid}/cancel_outstanding`,
      headers: { cookie: `cb_session=${r.token}`, 'sec-fetch-site': 'same-origin' },
    });
    expect(own.status).toBe(200);
  });

  it('refuses a worker app write from another site, and leases nothing', async () => {
    const requester = await aRequester(t);
    await aTask(t, requester);
    const worker = await signUp(t);
    const checkOut = (site: string) =>
      t.request({
        method: 'POST',
        url: '/api/work/checkouts',
        headers: { cookie: `cb_session=${worker.token}`, 'sec-fetch-site': site },
        body: { project_uuid: requester.projectUuid },
      });
    const foreign = await checkOut('cross-site');
    expect(foreign.status).toBe(403);
    expect(foreign.body.errors[0].detail).toContain('other sites');
    const [{ leases }] = await t.db.query('SELECT count(*)::int AS leases FROM checkouts WHERE worker_id = $1', [worker.userId]);
    expect(leases).toBe(0);
    expect((await checkOut('same-origin')).status).toBe(201);
  });

  it('takes a bodiless write that declares Content-Length: 0 and no Content-Type, as a browser’s fetch sends it', async () => {
    const user = await signUp(t);
    const logout = await t.request({
      method: 'POST',
      url: '/api/session/logout',
      headers: { cookie: `cb_session=${user.token}`, 'sec-fetch-site': 'same-origin', 'content-length': '0' },
    });
    expect(logout.status).toBe(200);
  });
});
