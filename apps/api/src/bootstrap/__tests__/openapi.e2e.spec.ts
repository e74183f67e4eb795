import SwaggerParser from '@apidevtools/swagger-parser';
import { WORKER_PSEUDONYM } from '@crowdbox/contracts';
import { randomUUID } from 'node:crypto';
import { aCompletedTask, aRequester, aTask, checkOut, signUp, type Requester, type SignedIn } from '../../../test/factories';
import { collectRegisteredRoutes, fastifyPath } from '../../../test/registered-routes';
import { startTestApp, type TestApp } from '../../../test/test-app';

/**
 * The OpenAPI document at /api/docs/openapi.json (Swagger UI at /api/docs), read from the running app:
 * valid OpenAPI, every route of the API in it with a summary, a tag, the credential its guard requires,
 * its error answers in the contract's envelope, uuid path parameters and a success schema; and what the
 * server really answers (a 401 without credentials, the bodies of its successes and errors) matches it.
 */

const METRICS_TOKEN = 'openapi-metrics-token';

/**
 * The routes that take no credential (the access matrix's `anyone` and `anonymous`): every other route
 * needs one (auth/__tests__/access-matrix.e2e.spec.ts).
 */
const PUBLIC = ['POST /api/session/signup', 'POST /api/session/login', 'GET /healthz', 'GET /readyz'];

/** The security schemes a route's guard accepts, by path (either of a route's schemes will do). */
function expectedSchemes(method: string, path: string): string[] {
  if (PUBLIC.includes(`${method} ${path}`)) return [];
  if (path === '/metrics') return ['metrics'];
  if (path.startsWith('/api/v1/')) return ['apikey'];
  if (/^\/api\/(session|console|work)\//.test(path)) return ['session', 'session_cookie'];
  throw new Error(`no credential stated for ${method} ${path}`);
}

/** The paths the document covers: the API's, the probes and metrics (not Swagger UI's files nor the web app's). */
const DOCUMENTED = /^\/(api\/(v1|session|console|work)\/|healthz$|readyz$|metrics$)/;

/** Every route as Fastify registers it, as the access matrix collects them. */
const registered = collectRegisteredRoutes();

/* eslint-disable @typescript-eslint/no-explicit-any -- the document is JSON read from the wire */
interface Operation {
  method: string;
  path: string;
  op: any;
}


describe('the OpenAPI document', () => {
  let t: TestApp;
  let doc: any;
  let resolved: any;
  let operations: Operation[];

  beforeAll(async () => {
    t = await startTestApp({ METRICS_TOKEN });
    const res = await t.request({ method: 'GET', url: '/api/docs/openapi.json' });
    expect(res.status).toBe(200);
    doc = res.body;
    resolved = await SwaggerParser.dereference(structuredClone(doc));
    operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
        .map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
    );
  });
  afterAll(() => t.close());

  const name = ({ method, path }: Operation) => `${method} ${path}`;

  it('is valid OpenAPI', async () => {
    await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeDefined();
  });

  it('documents every route of the API, and no route the API lacks', () => {
    const served = registered.filter((route) => !route.startsWith('HEAD ') && DOCUMENTED.test(route.split(' ')[1]));
    expect(operations.map((o) => `${o.method} ${fastifyPath(o.path)}`).sort()).toEqual([...new Set(served)].sort());
  });

  it('gives every operation a one-line summary and a tag the document lists', () => {
    const tags = (doc.tags ?? []).map((tag: { name: string }) => tag.name);
    const lacking = operations
      .filter(({ op }) => !(typeof op.summary === 'string' && op.summary.length > 0 && !op.summary.includes('\n') && op.tags?.length === 1 && tags.includes(op.tags[0])))
      .map(name);
    expect(lacking).toEqual([]);
  });

  it('names the credential each guard requires, on every route that is not public, and none on the public ones', () => {
    const declared = Object.keys(doc.components.securitySchemes);
    for (const o of operations) {
      const schemes = (o.op.security ?? []).flatMap((requirement: object) => Object.keys(requirement));
      expect({ route: name(o), schemes: [...schemes].sort() }).toEqual({ route: name(o), schemes: expectedSchemes(o.method, o.path).sort() });
      expect(schemes.filter((scheme: string) => !declared.includes(scheme))).toEqual([]);
    }
    expect(doc.components.securitySchemes.apikey).toMatchObject({ type: 'apiKey', in: 'header', name: 'apikey' });
    expect(doc.components.securitySchemes.session).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.session_cookie).toMatchObject({ type: 'apiKey', in: 'cookie', name: '__Host-cb_session' });
  });

  it('documents a 401 wherever a credential is required, and the server answers it without one', async () => {
    for (const o of operations.filter((operation) => expectedSchemes(operation.method, operation.path).length > 0)) {
      expect({ route: name(o), documented: '401' in o.op.responses }).toEqual({ route: name(o), documented: true });
      const url = o.path.replace(/\{\w+\}/g, () => randomUUID());
      const res = await t.request({ method: o.method as 'GET', url, ...(o.method === 'GET' || o.method === 'DELETE' ? {} : { body: {} }) });
      expect({ route: name(o), status: res.status }).toEqual({ route: name(o), status: 401 });
      expect(mismatches(responseSchema(o.method, o.path, 401), res.body)).toEqual([]);
    }
    for (const route of PUBLIC) {
      const [method, url] = route.split(' ');
      expect({ route, status: (await t.request({ method: method as 'GET', url, ...(method === 'POST' ? { body: {} } : {}) })).status }).not.toEqual({ route, status: 401 });
    }
  });

  it("types every path parameter as a uuid (a worker's pseudonym by its pattern), and documents each one the path names", () => {
    const schemaOf = (param: string) => (param === 'worker' ? { type: 'string', pattern: WORKER_PSEUDONYM.source } : { type: 'string', format: 'uuid' });
    for (const o of operations) {
      const inPath = [...o.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const params = (o.op.parameters ?? []).filter((p: { in: string }) => p.in === 'path');
      expect({ route: name(o), params: params.map((p: { name: string }) => p.name).sort() }).toEqual({ route: name(o), params: [...inPath].sort() });
      for (const p of params) expect({ route: name(o), param: p.name, schema: p.schema }).toEqual({ route: name(o), param: p.name, schema: schemaOf(p.name) });
    }
  });

  it('documents the query parameters of the lists and exports', () => {
    const query = (path: string) =>
      Object.fromEntries(
        doc.paths[path].get.parameters.filter((p: { in: string }) => p.in === 'query').map((p: { name: string; schema: object }) => [p.name, p.schema]),
      );
    expect(query('/api/console/projects/{uuid}/tasks')).toEqual({
      state: { type: 'string', enum: ['incomplete', 'complete', 'cancelled'] },
      reported: { type: 'string', enum: ['true'] },
      worker: { type: 'string', pattern: WORKER_PSEUDONYM.source },
      before: { type: 'string' },
      limit: { type: 'integer', minimum: 1, maximum: 100, default: 50 },
    });
    expect(Object.keys(query('/api/work/submissions')).sort()).toEqual(['before', 'limit']);
    expect(query('/api/console/webhooks/events')).toEqual({ state: { type: 'string', enum: ['pending', 'delivered', 'failed'] }, before: { type: 'string' } });
    expect(Object.keys(query('/api/v1/projects/{uuid}/annotations')).sort()).toEqual(['format', 'view']);
    expect(Object.keys(query('/api/v1/tasks/{uuid}/annotations'))).toEqual(['view']);
    expect(Object.keys(query('/api/console/projects/{uuid}/results'))).toEqual(['format']);
  });

  it("describes add_task's body, the error envelope, and every error answer in it", () => {
    const body = resolved.paths['/api/v1/projects/add_task'].post.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(['task']);
    expect(body.properties.project_uuid).toEqual({ type: 'string', nullable: true });
    expect(Object.keys(body.properties.task.properties)).toEqual(
      expect.arrayContaining(['project_uuid', 'substitutions', 'callback_url', 'reward', 'required_submissions', 'external_image_url']),
    );
    expect(doc.components.schemas.ErrorBody).toMatchObject({ type: 'object', required: ['errors'], properties: { errors: { type: 'array', items: { $ref: '#/components/schemas/ErrorItem' } } } });
    expect(doc.components.schemas.ErrorItem).toMatchObject({ type: 'object', required: ['field', 'detail'] });
    for (const o of operations) {
      for (const [status, response] of Object.entries<any>(o.op.responses)) {
        if (Number(status) < 400) continue;
        expect({ route: name(o), status, schema: response.content?.['application/json']?.schema }).toEqual({
          route: name(o),
          status,
          schema: { $ref: '#/components/schemas/ErrorBody' },
        });
      }
    }
  });

  it('gives every operation a success response with a schema', () => {
    const lacking = operations.filter(({ op }) =>
      Object.entries<any>(op.responses).every(([status, response]) => !(Number(status) < 300 && Object.values<any>(response.content ?? {}).some((c) => c.schema))),
    );
    expect(lacking.map(name)).toEqual([]);
  });

  it('keeps the webhook payloads and the Standard Webhooks headers in the document', () => {
    expect(doc.components.schemas.WebhookChallenge.properties.event).toEqual({ type: 'string', enum: ['challenge'] });
    expect(doc.components.schemas.WebhookTaskCompleted.properties.data.properties).toEqual({
      task: { $ref: '#/components/schemas/Task' },
      annotations: { $ref: '#/components/schemas/TaskAnnotationsRecord' },
    });
    for (const header of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) expect(doc.info.description).toContain(header);
  });

  describe('answers as documented', () => {
    let owner: Requester;
    let worker: SignedIn;
    let task: string;
    let doneTask: string;
    let lease: string;

    beforeAll(async () => {
      owner = await aRequester(t);
      worker = await signUp(t);
      doneTask = await aCompletedTask(t, owner, worker);
      task = await aTask(t, owner, { callback_url: 'http://127.0.0.1:9/hook' });
      lease = (await checkOut(t, worker, owner.projectUuid)).checkout_id;
      await t.db.query(
        `INSERT INTO webhook_events (id, account_id, type, payload, state, task_id) VALUES ($1, $2, 'task_completed', '{}', 'failed', $3)`,
        [randomUUID(), owner.accountId, doneTask],
      );
    });

    it('in the body of every read, by the schema of its status', async () => {
      const p = () => owner.projectUuid;
      const reads: Array<{ path: string; url: string; as: Record<string, string>; status?: number }> = [
        { path: '/api/v1/ping', url: '/api/v1/ping', as: { apikey: owner.liveKey } },
        { path: '/api/v1/projects/{uuid}', url: `/api/v1/projects/${p()}`, as: { apikey: owner.liveKey } },
        { path: '/api/v1/tasks/{uuid}', url: `/api/v1/tasks/${task}`, as: { apikey: owner.liveKey } },
        { path: '/api/v1/worktasks/{uuid}', url: `/api/v1/worktasks/${randomUUID()}`, as: { apikey: owner.liveKey }, status: 422 },
        { path: '/api/v1/tasks/{uuid}/annotations', url: `/api/v1/tasks/${doneTask}/annotations?view=submissions`, as: { apikey: owner.liveKey } },
        { path: '/api/v1/projects/{uuid}/annotations', url: `/api/v1/projects/${p()}/annotations?view=submissions`, as: { apikey: owner.liveKey } },
        { path: '/api/v1/projects/{uuid}/annotations', url: `/api/v1/projects/${p()}/annotations?format=nope`, as: { apikey: owner.liveKey }, status: 422 },
        { path: '/api/session/me', url: '/api/session/me', as: owner.auth },
        { path: '/api/console/projects', url: '/api/console/projects', as: owner.auth },
        { path: '/api/console/projects/{uuid}', url: `/api/console/projects/${p()}`, as: owner.auth },
        { path: '/api/console/projects/{uuid}', url: `/api/console/projects/${randomUUID()}`, as: owner.auth, status: 404 },
        { path: '/api/console/projects/{uuid}/progress', url: `/api/console/projects/${p()}/progress`, as: owner.auth },
        { path: '/api/console/projects/{uuid}/tasks', url: `/api/console/projects/${p()}/tasks?limit=1`, as: owner.auth },
        { path: '/api/console/projects/{uuid}/tasks', url: `/api/console/projects/${p()}/tasks?limit=0`, as: owner.auth, status: 422 },
        { path: '/api/console/projects/{uuid}/tasks/{taskUuid}', url: `/api/console/projects/${p()}/tasks/${doneTask}`, as: owner.auth },
        { path: '/api/console/projects/{uuid}/results', url: `/api/console/projects/${p()}/results`, as: owner.auth },
        { path: '/api/console/api_keys', url: '/api/console/api_keys', as: owner.auth },
        { path: '/api/console/webhooks', url: '/api/console/webhooks', as: owner.auth },
        { path: '/api/console/webhooks/events', url: '/api/console/webhooks/events', as: owner.auth },
        { path: '/api/work/projects', url: '/api/work/projects', as: worker.auth },
        { path: '/api/work/checkouts', url: '/api/work/checkouts', as: worker.auth },
        { path: '/api/work/checkouts/{id}', url: `/api/work/checkouts/${lease}`, as: worker.auth },
        { path: '/api/work/earnings', url: '/api/work/earnings', as: worker.auth },
        { path: '/api/work/submissions', url: '/api/work/submissions', as: worker.auth },
        { path: '/healthz', url: '/healthz', as: {} },
        { path: '/readyz', url: '/readyz', as: {} },
      ];
      for (const { path, url, as, status = 200 } of reads) {
        const res = await t.request({ method: 'GET', url, headers: as });
        expect({ url, status: res.status, mismatches: mismatches(responseSchema('GET', path, res.status), res.body) }).toEqual({ url, status, mismatches: [] });
      }
    });

    it('in the body of the writes that create', async () => {
      const added = await t.request({ method: 'POST', url: '/api/v1/projects/add_task', headers: { apikey: owner.liveKey }, body: { task: { project_uuid: owner.projectUuid, substitutions: { object: 'car' } } } });
      expect(added.status).toBe(201);
      expect(mismatches(responseSchema('POST', '/api/v1/projects/add_task', 201), added.body)).toEqual([]);
      const key = await t.request({ method: 'POST', url: '/api/console/api_keys', headers: owner.auth, body: { mode: 'test' } });
      expect(key.status).toBe(201);
      expect(mismatches(responseSchema('POST', '/api/console/api_keys', 201), key.body)).toEqual([]);
      const checkout = await t.request({ method: 'POST', url: '/api/work/checkouts', headers: worker.auth, body: { project_uuid: owner.projectUuid } });
      expect(checkout.status).toBe(200); // the lease the worker already holds
      expect(mismatches(responseSchema('POST', '/api/work/checkouts', checkout.status), checkout.body)).toEqual([]);
    });

    it('so a field the code adds, drops or retypes would show', async () => {
      const schema = responseSchema('GET', '/api/v1/projects/{uuid}', 200);
      const { body } = await t.request({ method: 'GET', url: `/api/v1/projects/${owner.projectUuid}`, headers: { apikey: owner.liveKey } });
      expect(mismatches(schema, body)).toEqual([]);
      const { name: _name, ...dropped } = body.data;
      expect(mismatches(schema, { data: { ...body.data, extra: 1 } })).toEqual(['$.data.extra: not in the schema']);
      expect(mismatches(schema, { data: dropped })).toEqual(['$.data.name: missing']);
      expect(mismatches(schema, { data: { ...body.data, uuid: 7 } })).toEqual(['$.data.uuid: not a string']);
    });
  });

  /** The documented JSON schema of one answer, resolved; fails the test when the status is not documented. */
  function responseSchema(method: string, path: string, status: number): any {
    const response = resolved.paths[path]?.[method.toLowerCase()]?.responses?.[String(status)];
    if (!response) throw new Error(`${method} ${path} answered ${status}, which the document does not list`);
    return response.content['application/json'].schema;
  }
});

/**
 * Where `value` departs from `schema` (a resolved OpenAPI 3.0 schema): a missing required property, one
 * the schema does not list, a wrong type, a value outside an enum. Strict on properties, so a field the
 * code adds or drops without the document shows here.
 */
function mismatches(schema: any, value: unknown, at = '$'): string[] {
  if (schema.allOf) schema = mergeAllOf(schema.allOf);
  if (value === null) return schema.nullable ? [] : [`${at}: null`];
  if (schema.anyOf) return schema.anyOf.some((s: any) => mismatches(s, value, at).length === 0) ? [] : [`${at}: matches no anyOf`];
  if (schema.enum && !schema.enum.includes(value)) return [`${at}: ${JSON.stringify(value)} not in ${JSON.stringify(schema.enum)}`];
  switch (schema.type) {
    case 'object': {
      if (typeof value !== 'object' || Array.isArray(value)) return [`${at}: not an object`];
      const record = value as Record<string, unknown>;
      const properties: Record<string, any> = schema.properties ?? {};
      const problems = (schema.required ?? []).filter((key: string) => !(key in record)).map((key: string) => `${at}.${key}: missing`);
      for (const [key, item] of Object.entries(record)) {
        if (properties[key]) problems.push(...mismatches(properties[key], item, `${at}.${key}`));
        else if (typeof schema.additionalProperties === 'object') problems.push(...mismatches(schema.additionalProperties, item, `${at}.${key}`));
        else if (schema.properties) problems.push(`${at}.${key}: not in the schema`);
      }
      return problems;
    }
    case 'array':
      return Array.isArray(value) ? value.flatMap((item, i) => mismatches(schema.items, item, `${at}[${i}]`)) : [`${at}: not an array`];
    case 'integer':
      return Number.isInteger(value) ? [] : [`${at}: not an integer`];
    case 'number':
      return typeof value === 'number' ? [] : [`${at}: not a number`];
    case 'boolean':
      return typeof value === 'boolean' ? [] : [`${at}: not a boolean`];
    case 'string':
      if (typeof value !== 'string') return [`${at}: not a string`];
      if (schema.format === 'uuid' && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value)) return [`${at}: not a uuid`];
      if (schema.format === 'date-time' && Number.isNaN(Date.parse(value))) return [`${at}: not a date-time`];
      return [];
    default:
      return [];
  }
}

function mergeAllOf(parts: any[]): any {
  return parts.reduce(
    (merged, part) => ({
      ...merged,
      ...part,
      properties: { ...merged.properties, ...part.properties },
      required: [...(merged.required ?? []), ...(part.required ?? [])],
    }),
    {},
  );
}
