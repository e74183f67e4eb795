import { startTestApp, type TestApp } from '../../../test/test-app';
import { aRequester, type Requester } from '../../../test/factories';

/**
 * Errors Fastify meets before any route runs answer in the contract's shape too (API.md: every error is
 * {"errors":[{field,detail}]}), where Fastify's own body ({"error","code","message","statusCode"}) is
 * one that Cogmint clients read as a malformed response.
 */
describe('errors before routing', () => {
  let t: TestApp;
  let r: Requester;
  beforeAll(async () => {
    t = await startTestApp();
    r = await aRequester(t);
  });
  afterAll(() => t.close());

  it('400 root: a path that is not valid percent-encoding', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/tasks/%E0%A4%A', headers: { apikey: r.liveKey } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errors: [{ field: 'root', detail: expect.stringContaining('not a valid url component') }] });
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
  });

  it('a long malformed id still reaches its route: 422 worktask not found', async () => {
    const res = await t.request({ method: 'GET', url: `/api/v1/tasks/${'x'.repeat(300)}`, headers: { apikey: r.liveKey } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ errors: [{ field: 'root', detail: 'worktask not found' }] });
  });

  it('414 root: a path parameter past 1,000 characters, in the contract shape', async () => {
    const res = await t.request({ method: 'GET', url: `/api/v1/tasks/${'x'.repeat(1001)}`, headers: { apikey: r.liveKey } });
    expect(res.status).toBe(414);
    expect(res.body).toEqual({ errors: [{ field: 'root', detail: expect.any(String) }] });
  });
});
