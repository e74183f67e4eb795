import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp, type TestApp } from '../../../test/test-app';

const HTML = '<!doctype html><html><head><title>Crowdbox</title></head><body><div id="root"></div></body></html>';
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/** The server with a built web app (WEB_DIST_DIR): page loads get index.html, the API keeps its JSON 404. */
describe('the web app served by the API', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'crowdbox-web-app-'));
    writeFileSync(join(dist, 'index.html'), HTML);
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'assets', 'index-abc123.js'), 'console.log("app");');
    t = await startTestApp({ WEB_DIST_DIR: dist });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const page = (url: string, accept = BROWSER_ACCEPT) => t.request({ method: 'GET', url, headers: { accept } });

  it('serves index.html for every page of the client router, including /login and /signup', async () => {
    const pages = [
      '/',
      '/login',
      '/signup',
      '/login?next=%2Fconsole',
      '/work',
      '/work/00000000-0000-4000-8000-000000000000',
      '/console',
      '/console/projects/new',
      '/console/projects/00000000-0000-4000-8000-000000000000/tasks/00000000-0000-4000-8000-000000000001',
      '/console/keys',
      '/console/webhooks',
      // The client router's own "not found" page renders this one.
      '/no-such-page',
    ];
    for (const url of pages) {
      const res = await page(url);
      expect({ url, status: res.status }).toEqual({ url, status: 200 });
      expect(String(res.headers['content-type'])).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.text).toBe(HTML);
    }
    const head = await t.request({ method: 'HEAD', url: '/signup', headers: { accept: BROWSER_ACCEPT } });
    expect(head.status).toBe(200);
    expect(String(head.headers['content-type'])).toMatch(/^text\/html/);
  });

  it('forbids other sites to frame the pages (clickjacking), and browsers to sniff types', async () => {
    for (const url of ['/console/keys', '/work']) {
      const res = await page(url);
      expect(res.status).toBe(200);
      expect(res.headers).toMatchObject({
        'content-security-policy': "frame-ancestors 'none'",
        'x-frame-options': 'DENY',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'same-origin',
      });
    }
    expect((await t.request({ method: 'GET', url: '/assets/index-abc123.js' })).headers['x-content-type-options']).toBe('nosniff');
  });

  it('keeps the JSON 404 under /api, even for a browser', async () => {
    for (const accept of [BROWSER_ACCEPT, 'application/json']) {
      const res = await page('/api/nope', accept);
      expect(res.status).toBe(404);
      expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
      expect(res.body).toEqual({ errors: [{ field: 'root', detail: 'no route GET /api/nope' }] });
    }
    const api = await page('/api');
    expect(api.status).toBe(404);
    expect(api.body.errors[0].field).toBe('root');
  });

  it('answers what is not a page load with the JSON errors as before', async () => {
    // An API-style request for a page path, and a POST to it.
    const json = await page('/login', 'application/json');
    expect(json.status).toBe(404);
    expect(json.body).toEqual({ errors: [{ field: 'root', detail: 'no route GET /login' }] });
    const post = await t.request({ method: 'POST', url: '/login', headers: { accept: BROWSER_ACCEPT }, body: {} });
    expect(post.status).toBe(404);
    expect(post.body.errors[0].field).toBe('root');
    // A known API route with the wrong method is still a 405.
    const ping = await t.request({ method: 'POST', url: '/api/v1/ping', headers: { accept: BROWSER_ACCEPT } });
    expect(ping.status).toBe(405);
  });

  it('serves the assets and 404s a missing one as JSON, not as the page', async () => {
    const asset = await page('/assets/index-abc123.js', '*/*');
    expect(asset.status).toBe(200);
    expect(asset.text).toBe('console.log("app");');
    expect(String(asset.headers['cache-control'])).toContain('immutable');
    const missing = await page('/assets/gone-000000.js');
    expect(missing.status).toBe(404);
    expect(missing.body.errors[0].field).toBe('root');
  });

  it('leaves the health checks to the server', async () => {
    const res = await page('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { ok: true } });
    const under = await page('/healthz/more');
    expect(under.status).toBe(404);
    expect(under.body.errors[0].field).toBe('root');
  });
});

describe('the API without a web app (WEB_DIST_DIR unset)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers a page load with the JSON 404', async () => {
    const res = await t.request({ method: 'GET', url: '/login', headers: { accept: BROWSER_ACCEPT } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ errors: [{ field: 'root', detail: 'no route GET /login' }] });
  });
});
