import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { A_BOX, aCompletedTask, aRequester, aTask, checkOut, createApiKey, signUp, type Requester, type SignedIn } from '../../../test/factories';
import { collectRegisteredRoutes, fastifyPath } from '../../../test/registered-routes';
import { startTestApp, type RequestOptions, type TestApp, type TestResponse } from '../../../test/test-app';
import { asFixture, leaseInDb } from '../../../test/work-fixtures';
import { sha256Hex } from '../../common/crypto.util';
import { workerPseudonym } from '../../submissions/worker-pseudonym';

/**
 * Who may call each route of the API, checked against the running app. MATRIX below lists every route
 * (method + path as Fastify registered it) and who may call it; the first test fails when the app has a
 * route the table does not list, or the table one the app lacks, so a new route cannot ship without its
 * access decided here. For each route, with the data of two accounts:
 * - no credentials, made-up, revoked or logged-out credentials, and the other kind of credential (a
 *   session on /api/v1, an API key on a session route) are refused with the contract's 401 and change
 *   nothing;
 * - a stranger (another account's key or session; also the project's owner to its worker's lease, and the
 *   worker to the owner's project) on the owner's resource gets exactly the answer for a resource that
 *   does not exist (API.md: "not found, or another account's"), for ids in upper case and resources in
 *   every state too (ended leases, complete and cancelled tasks, a revoked key), GET and HEAD; on an
 *   account-wide route it gets an answer holding nothing of the owner's; the owner's rows are unchanged;
 * - writes to the cookie's routes from another site are 403 and change nothing; /api/v1 ignores Origin
 *   (docs/decisions.md, "Writes to the cookie's routes must come from our own pages (CSRF)");
 * - the owner itself is let through, as the web app calls (the cookie) or with a live or a test key, so the
 *   refusals above are about who asks, not a broken request.
 */

const METRICS_TOKEN = 'matrix-metrics-token';
const PASSWORD = 'correct horse battery'; // factories' signUp default
const EVIL = 'https://evil.example';

/** Who may call a route. */
type Who =
  | 'anyone' //       no credentials needed: probes, API docs, the web app's files
  | 'metrics' //      Authorization: Bearer <METRICS_TOKEN>
  | 'anonymous' //    sign-up and log-in: no credentials, they make a session
  | 'apiKey' //       any API key of the owning account, live or test
  | 'signedIn' //     any session, about its own user (/api/session)
  | 'requester' //    a session of the owning account (the console)
  | 'worker'; //      any session, on its own leases and other accounts' projects (the worker app)

/** What a stranger (another account) gets from the route. */
type Stranger =
  | 'notFound' //     on the owner's resource: the answer for a resource that does not exist, nothing changed
  | 'ownOnly' //      account-wide: its own data only, nothing of the owner's, the owner's rows unchanged
  | 'market' //       the worker's list of every account's open projects: nothing private of the owner's
  | 'open'; //        may act on anyone's (sign-up, log-in, leasing another account's task)

/** The owner's resources a request names; a stranger names the same ones, or ids that exist nowhere. */
interface Ids {
  project: string;
  /** An open task, leased by the owner's worker. */
  task: string;
  /** A task the owner's worker completed. */
  doneTask: string;
  /** The worker's active lease on `task`. */
  lease: string;
  /** The owner's live API key. */
  key: string;
  /** A failed webhook event of the owner. */
  event: string;
  /** The worker's pseudonym in the owner's project. */
  worker: string;
  /** The owner's block of another worker. */
  block: string;
  /** Another live session of the owner's (not the one the owner's requests use). */
  session: string;
}

interface Route {
  route: string;
  who: Who;
  stranger?: Stranger;
  /** The owner's success, which shows the refusals are about the caller. */
  ok: number;
  /** The request on these ids; default: the route's path as is. */
  request?: (ids: Ids, world: World) => { url: string; body?: unknown };
}

const MISSING: Ids = {
  project: randomUUID(),
  task: randomUUID(),
  doneTask: randomUUID(),
  lease: randomUUID(),
  key: randomUUID(),
  event: randomUUID(),
  worker: 'worker_000000000000',
  block: randomUUID(),
  session: randomUUID(),
};

// prettier-ignore
const MATRIX: Route[] = [
  // The requester API (API.md §1): an API key of the account that owns the project or task.
  { route: 'GET /api/v1/ping', who: 'apiKey', stranger: 'ownOnly', ok: 200 },
  { route: 'POST /api/v1/projects/add_task', who: 'apiKey', stranger: 'notFound', ok: 201,
    request: (ids) => ({ url: '/api/v1/projects/add_task', body: { task: { project_uuid: ids.project, substitutions: { object: 'car' } } } }) },
  { route: 'POST /api/v1/projects/add_tasks', who: 'apiKey', stranger: 'notFound', ok: 201,
    request: (ids) => ({ url: '/api/v1/projects/add_tasks', body: { project_uuid: ids.project, tasks: [{ substitutions: { object: 'car' } }] } }) },
  { route: 'GET /api/v1/projects/:uuid', who: 'apiKey', stranger: 'notFound', ok: 200, request: (ids) => ({ url: `/api/v1/projects/${ids.project}` }) },
  { route: 'GET /api/v1/projects/:uuid/annotations', who: 'apiKey', stranger: 'notFound', ok: 200, request: (ids) => ({ url: `/api/v1/projects/${ids.project}/annotations` }) },
  { route: 'GET /api/v1/tasks/:uuid', who: 'apiKey', stranger: 'notFound', ok: 200, request: (ids) => ({ url: `/api/v1/tasks/${ids.task}` }) },
  { route: 'GET /api/v1/worktasks/:uuid', who: 'apiKey', stranger: 'notFound', ok: 200, request: (ids) => ({ url: `/api/v1/worktasks/${ids.task}` }) },
  { route: 'GET /api/v1/tasks/:uuid/annotations', who: 'apiKey', stranger: 'notFound', ok: 200, request: (ids) => ({ url: `/api/v1/tasks/${ids.doneTask}/annotations` }) },

  // Sessions (API.md §4, docs/decisions.md "Changing a password ends the other sessions").
  { route: 'POST /api/session/signup', who: 'anonymous', stranger: 'open', ok: 201,
    request: () => ({ url: '/api/session/signup', body: { email: `matrix-${randomUUID()}@example.com`, password: PASSWORD, name: 'Matrix' } }) },
  { route: 'POST /api/session/login', who: 'anonymous', stranger: 'open', ok: 200,
    request: (_ids, w) => ({ url: '/api/session/login', body: { email: w.owner.email, password: PASSWORD } }) },
  { route: 'POST /api/session/logout', who: 'signedIn', stranger: 'ownOnly', ok: 200 },
  { route: 'POST /api/session/password', who: 'signedIn', stranger: 'ownOnly', ok: 200,
    request: () => ({ url: '/api/session/password', body: { current_password: PASSWORD, new_password: 'another horse battery' } }) },
  { route: 'POST /api/session/logout_others', who: 'signedIn', stranger: 'ownOnly', ok: 200 },
  { route: 'GET /api/session/me', who: 'signedIn', stranger: 'ownOnly', ok: 200 },
  // docs/decisions.md "Signed-in devices": a user lists and ends their own sessions only.
  { route: 'GET /api/session/sessions', who: 'signedIn', stranger: 'ownOnly', ok: 200 },
  { route: 'DELETE /api/session/sessions/:id', who: 'signedIn', stranger: 'notFound', ok: 200, request: (ids) => ({ url: `/api/session/sessions/${ids.session}` }) },
  // docs/decisions.md "Downloading your data": a stranger's session downloads its own data, nothing of the owner's.
  { route: 'GET /api/session/export', who: 'signedIn', stranger: 'ownOnly', ok: 200 },
  // docs/decisions.md "Deleting an account": a stranger's session deletes its own account, never the owner's.
  { route: 'POST /api/session/delete_account', who: 'signedIn', stranger: 'ownOnly', ok: 200,
    request: () => ({ url: '/api/session/delete_account', body: { password: PASSWORD } }) },

  // The worker app (API.md §3): any signed-in user, on its own leases.
  { route: 'GET /api/work/projects', who: 'worker', stranger: 'market', ok: 200 },
  { route: 'GET /api/work/earnings', who: 'worker', stranger: 'ownOnly', ok: 200 },
  { route: 'GET /api/work/submissions', who: 'worker', stranger: 'ownOnly', ok: 200 },
  { route: 'GET /api/work/checkouts', who: 'worker', stranger: 'ownOnly', ok: 200 },
  // Any worker may lease another account's task; 200 answers the lease the worker already holds there.
  { route: 'POST /api/work/checkouts', who: 'worker', stranger: 'open', ok: 200, request: (ids) => ({ url: '/api/work/checkouts', body: { project_uuid: ids.project } }) },
  { route: 'GET /api/work/checkouts/:id', who: 'worker', stranger: 'notFound', ok: 200, request: (ids) => ({ url: `/api/work/checkouts/${ids.lease}` }) },
  { route: 'POST /api/work/checkouts/:id/submit', who: 'worker', stranger: 'notFound', ok: 201,
    request: (ids) => ({ url: `/api/work/checkouts/${ids.lease}/submit`, body: { annotations: [A_BOX], image_width: 640, image_height: 480 } }) },
  { route: 'POST /api/work/checkouts/:id/release', who: 'worker', stranger: 'notFound', ok: 200, request: (ids) => ({ url: `/api/work/checkouts/${ids.lease}/release`, body: { problem: 'image_broken' } }) },

  // The console (API.md §4): a session of the account that owns the project, key or event.
  { route: 'GET /api/console/projects', who: 'requester', stranger: 'ownOnly', ok: 200 },
  { route: 'POST /api/console/projects', who: 'requester', stranger: 'ownOnly', ok: 201,
    request: () => ({ url: '/api/console/projects', body: { name: 'matrix', display_name: 'Matrix', display_short_description: 'd', template: '<p>[[object]]</p>', labels: ['car'], default_required_submissions: 1, default_reward: 1, allowed_completion_time_seconds: 600 } }) },
  { route: 'GET /api/console/projects/:uuid', who: 'requester', stranger: 'notFound', ok: 200, request: (ids) => ({ url: `/api/console/projects/${ids.project}` }) },
  { route: 'PATCH /api/console/projects/:uuid', who: 'requester', stranger: 'notFound', ok: 200, request: (ids) => ({ url: `/api/console/projects/${ids.project}`, body: { display_name: 'Renamed' } }) },
  { route: 'POST /api/console/projects/:uuid/cancel_outstanding', who: 'requester', stranger: 'notFound', ok: 200, request: (ids) => ({ url: `/api/console/projects/${ids.project}/cancel_outstanding` }) },
  { route: 'POST /api/console/projects/:uuid/archive', who: 'requester', stranger: 'notFound', ok: 200, request: (ids) => ({ url: `/api/console/projects/${ids.project}/archive` }) },
  { route: 'POST /api/console/projects/:uuid/unarchive', who: 'requester', stranger: 'notFound', ok: 200, request: (ids) => ({ url: `/api/console/projects/${ids.project}/unarchive` }) },
  { route: 'GET /api/console/projects/:uuid/progress', who: 'requester', stranger: 'notFound', ok: 200, request: (ids) => ({ url: `/api/console/projects/${ids.project}/progress` }) },
  { route: 'GET /api/console/projects/:uuid/tasks', who: 'requester', stranger: 'notFound', ok: 200, request: (ids) => ({ url: `/api/console/projects/${ids.project}/tasks` }) },
  { route: 'GET /api/console/projects/:uuid/tasks/:taskUuid', who: 'requester', stranger: 'notFound', ok: 200, request: (ids) => ({ url: `/api/console/projects/${ids.project}/tasks/${ids.task}` }) },
  { route: 'POST /api/console/projects/:uuid/tasks/:taskUuid/cancel', who: 'requester', stranger: 'notFound', ok: 200, request: (ids) => ({ url: `/api/console/projects/${ids.project}/tasks/${ids.task}/cancel` }) },
  { route: 'GET /api/console/projects/:uuid/results', who: 'requester', stranger: 'notFound', ok: 200, request: (ids) => ({ url: `/api/console/projects/${ids.project}/results` }) },
  { route: 'GET /api/console/api_keys', who: 'requester', stranger: 'ownOnly', ok: 200 },
  { route: 'POST /api/console/api_keys', who: 'requester', stranger: 'ownOnly', ok: 201, request: () => ({ url: '/api/console/api_keys', body: { mode: 'test' } }) },
  { route: 'DELETE /api/console/api_keys/:id', who: 'requester', stranger: 'notFound', ok: 200, request: (ids) => ({ url: `/api/console/api_keys/${ids.key}` }) },
  { route: 'GET /api/console/webhooks', who: 'requester', stranger: 'ownOnly', ok: 200 },
  { route: 'POST /api/console/webhooks/signing-secret/rotate', who: 'requester', stranger: 'ownOnly', ok: 200 },
  { route: 'GET /api/console/webhooks/events', who: 'requester', stranger: 'ownOnly', ok: 200 },
  { route: 'POST /api/console/webhooks/events/redeliver-failed', who: 'requester', stranger: 'ownOnly', ok: 202 },
  { route: 'POST /api/console/webhooks/events/:id/redeliver', who: 'requester', stranger: 'notFound', ok: 202, request: (ids) => ({ url: `/api/console/webhooks/events/${ids.event}/redeliver` }) },
  { route: 'POST /api/console/projects/:uuid/workers/:worker/block', who: 'requester', stranger: 'notFound', ok: 200,
    request: (ids) => ({ url: `/api/console/projects/${ids.project}/workers/${ids.worker}/block` }) },
  { route: 'GET /api/console/projects/:uuid/workers', who: 'requester', stranger: 'notFound', ok: 200, request: (ids) => ({ url: `/api/console/projects/${ids.project}/workers` }) },
  { route: 'GET /api/console/blocked_workers', who: 'requester', stranger: 'ownOnly', ok: 200 },
  { route: 'DELETE /api/console/blocked_workers/:id', who: 'requester', stranger: 'notFound', ok: 200, request: (ids) => ({ url: `/api/console/blocked_workers/${ids.block}` }) },

  // Probes, metrics, the API's documentation and the web app's files.
  { route: 'GET /healthz', who: 'anyone', ok: 200 },
  { route: 'GET /readyz', who: 'anyone', ok: 200 },
  { route: 'GET /metrics', who: 'metrics', ok: 200 },
  { route: 'GET /api/docs', who: 'anyone', ok: 200 },
  { route: 'GET /api/docs/', who: 'anyone', ok: 200 },
  { route: 'GET /api/docs/index.html', who: 'anyone', ok: 200 },
  // Swagger UI registers it; the installed swagger-ui-dist has no such file.
  { route: 'GET /api/docs/LICENSE', who: 'anyone', ok: 404 },
  { route: 'GET /api/docs/swagger-ui-init.js', who: 'anyone', ok: 200 },
  { route: 'GET /api/docs/docs/swagger-ui-init.js', who: 'anyone', ok: 200 },
  { route: 'GET /api/docs/*', who: 'anyone', ok: 200, request: () => ({ url: '/api/docs/swagger-ui.css' }) },
  { route: 'GET /api/docs/docs/*', who: 'anyone', ok: 200, request: () => ({ url: '/api/docs/docs/swagger-ui.css' }) },
  { route: 'GET /api/docs/openapi.json', who: 'anyone', ok: 200 },
  { route: 'GET /api/docs-yaml', who: 'anyone', ok: 200 },
  { route: 'GET /assets/*', who: 'anyone', ok: 200, request: () => ({ url: '/assets/app.js' }) },
];

const SESSION_KINDS: Who[] = ['signedIn', 'requester', 'worker'];
const COOKIE_ROUTES = ['/api/session/', '/api/console/', '/api/work/'];
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

const methodOf = (r: Route) => r.route.split(' ')[0] as RequestOptions['method'];
const pathOf = (r: Route) => r.route.split(' ')[1];
const isWrite = (r: Route) => !READS.has(methodOf(r));

/** An owner account with a project, a worker's lease and submission on it, a key and a webhook event. */
interface World {
  owner: Requester;
  worker: SignedIn;
  ids: Ids;
  /** Strings of the owner's and its worker's that no stranger's answer may hold. */
  secrets: string[];
  /** The owner's resources in other states, each named: what a stranger is refused on too. */
  variants: Array<{ name: string; ids: Ids }>;
  /** Credentials that once were the owner's: a revoked live key, a logged-out session. */
  revokedKey: string;
  loggedOut: string;
}

/** Every route as Fastify registers it (method and full path); see test/registered-routes.ts. */
const registered = collectRegisteredRoutes();

describe('access matrix: who may call every route', () => {
  let t: TestApp;
  let dist: string;
  let world: World;

  beforeAll(async () => {
    // A built web app, so its file routes are in the app as in production.
    dist = mkdtempSync(join(tmpdir(), 'crowdbox-matrix-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Crowdbox</title>');
    writeFileSync(join(dist, 'assets', 'app.js'), 'console.log(1)');
    t = await startTestApp({ WEB_DIST_DIR: dist, METRICS_TOKEN });
    world = await aWorld();
  });
  afterAll(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  async function aWorld(): Promise<World> {
    const template = `<p>Owner words ${randomUUID()} [[object]] in [[place]]</p>`;
    const owner = await aRequester(t, { display_name: `Owner's project ${randomUUID()}`, template });
    const worker = await signUp(t);
    const doneTask = await aCompletedTask(t, owner, worker);
    // Another worker of the owner's tasks, whom the owner blocks (below, once the worker's lease is taken).
    const blockedWorker = await signUp(t);
    await aCompletedTask(t, owner, blockedWorker);
    const task = await aTask(t, owner);
    const lease = await checkOut(t, worker, owner.projectUuid);
    const [{ id: key }] = await t.db.query(`SELECT id FROM api_keys WHERE account_id = $1 AND mode = 'live'`, [owner.accountId]);
    const [{ id: event }] = await t.db.query(
      `INSERT INTO webhook_events (id, account_id, type, payload, state, task_id) VALUES ($1, $2, 'task_completed', '{}', 'failed', $3) RETURNING id`,
      [randomUUID(), owner.accountId, doneTask],
    );
    const [{ id: submission }] = await t.db.query('SELECT id FROM submissions WHERE task_id = $1', [doneTask]);
    const [{ webhook_signing_secret: signingSecret }] = await t.db.query('SELECT webhook_signing_secret FROM accounts WHERE id = $1', [owner.accountId]);
    const blocked = await t.request({
      method: 'POST',
      url: `/api/console/projects/${owner.projectUuid}/workers/${workerPseudonym(owner.projectUuid, blockedWorker.userId)}/block`,
      headers: owner.auth,
    });
    expect(blocked.status).toBe(200);
    const block: string = blocked.body.data.id;
    // The owner signed in on a second device, whose session the owner may end.
    const secondDevice = await t.request({ method: 'POST', url: '/api/session/login', body: { email: owner.email, password: PASSWORD } });
    const [{ id: session }] = await t.db.query('SELECT id FROM sessions WHERE token_hash = $1', [sha256Hex(secondDevice.body.data.token)]);
    const ids = { project: owner.projectUuid, task, doneTask, lease: lease.checkout_id, key, event, worker: workerPseudonym(owner.projectUuid, worker.userId), block, session };
    const secrets = [
      template.slice(3, 51), owner.email, worker.email, owner.token, worker.token, owner.liveKey, owner.testKey, key, event, submission, signingSecret,
      lease.checkout_id, doneTask, block, blocked.body.data.worker, session,
    ];

    // Ended leases of the worker's (on tasks of their own), a cancelled task, a revoked key: a stranger must
    // not tell these from missing ones either, e.g. by a "checkout has expired" where a missing one is 404.
    const [{ checkout_id: submittedLease }] = await t.db.query('SELECT checkout_id FROM submissions WHERE id = $1', [submission]);
    // Ended just now, so a late problem report (docs/decisions.md, "Problem reports") would still be taken.
    const endedLease = async (state: 'released' | 'expired' | 'cancelled') => {
      const id = await leaseInDb(t.db, await aTask(t, owner), worker.userId, { state, expiresInSeconds: -60 });
      await asFixture(t.db, (tx) => tx.query('UPDATE checkouts SET ended_at = now() WHERE id = $1', [id]));
      return id;
    };
    const cancelledTask = await aTask(t, owner);
    await t.db.query('UPDATE tasks SET cancelled_at = now() WHERE id = $1', [cancelledTask]);
    const revokedKey = await createApiKey(t, owner, 'live');
    const [{ id: revokedKeyId }] = await t.db.query('SELECT id FROM api_keys WHERE account_id = $1 ORDER BY created_at DESC LIMIT 1', [owner.accountId]);
    expect((await t.request({ method: 'DELETE', url: `/api/console/api_keys/${revokedKeyId}`, headers: owner.auth })).status).toBe(200);
    const login = await t.request({ method: 'POST', url: '/api/session/login', body: { email: owner.email, password: PASSWORD } });
    const loggedOut = login.body.data.token as string;
    expect((await t.request({ method: 'POST', url: '/api/session/logout', headers: { authorization: `Bearer ${loggedOut}` } })).status).toBe(200);
    const upper = Object.fromEntries(Object.entries(ids).map(([name, id]) => [name, id.toUpperCase()])) as unknown as Ids;
    const variants = [
      { name: 'as they are', ids },
      { name: 'in upper case', ids: upper },
      { name: 'a submitted lease, a complete task', ids: { ...ids, lease: submittedLease, task: doneTask } },
      { name: 'a released lease, a cancelled task', ids: { ...ids, lease: await endedLease('released'), task: cancelledTask } },
      { name: 'an expired lease', ids: { ...ids, lease: await endedLease('expired') } },
      { name: 'a cancelled lease, a revoked key', ids: { ...ids, lease: await endedLease('cancelled'), key: revokedKeyId } },
    ];
    return { owner, worker, ids, secrets, variants, revokedKey, loggedOut };
  }

  /** A stranger: another account with its own project, task, keys, session and failed webhook event. */
  const aStranger = async () => {
    const stranger = await aRequester(t);
    await aTask(t, stranger);
    await t.db.query(`INSERT INTO webhook_events (id, account_id, type, payload, state) VALUES ($1, $2, 'task_completed', '{}', 'failed')`, [
      randomUUID(),
      stranger.accountId,
    ]);
    return stranger;
  };

  const requestOf = (r: Route, ids: Ids, w: World) => r.request?.(ids, w) ?? { url: pathOf(r) };
  /** Every status each route answered here: the last test checks that the OpenAPI document lists them. */
  const answered = new Map<string, Set<number>>();
  const send = async (r: Route, ids: Ids, w: World, headers: Record<string, string>) => {
    const { url, body } = requestOf(r, ids, w);
    const res = await t.request({ method: methodOf(r), url, headers, body });
    answered.set(r.route, (answered.get(r.route) ?? new Set()).add(res.status));
    return res;
  };

  /** The rows of the owner's account and of its worker, as JSON; a key's last use is left out (it is written when the owner calls). */
  async function rowsOf(w: World): Promise<string> {
    const accounts = [w.owner.accountId, w.worker.accountId];
    const tables = await Promise.all([
      t.db.query('SELECT * FROM accounts WHERE id = ANY($1) ORDER BY id', [accounts]),
      t.db.query('SELECT * FROM users WHERE account_id = ANY($1) ORDER BY id', [accounts]),
      t.db.query('SELECT s.* FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.account_id = ANY($1) ORDER BY s.id', [accounts]),
      t.db.query('SELECT id, account_id, mode, prefix, secret_hash, created_at, revoked_at FROM api_keys WHERE account_id = ANY($1) ORDER BY id', [accounts]),
      t.db.query('SELECT * FROM projects WHERE account_id = ANY($1) ORDER BY id', [accounts]),
      t.db.query('SELECT k.* FROM tasks k JOIN projects p ON p.id = k.project_id WHERE p.account_id = ANY($1) ORDER BY k.id', [accounts]),
      t.db.query(
        `SELECT c.* FROM checkouts c WHERE c.task_id IN (SELECT k.id FROM tasks k JOIN projects p ON p.id = k.project_id WHERE p.account_id = ANY($1))
            OR c.worker_id IN (SELECT id FROM users WHERE account_id = ANY($1)) ORDER BY c.id`,
        [accounts],
      ),
      t.db.query(
        `SELECT s.* FROM submissions s WHERE s.task_id IN (SELECT k.id FROM tasks k JOIN projects p ON p.id = k.project_id WHERE p.account_id = ANY($1))
            OR s.worker_id IN (SELECT id FROM users WHERE account_id = ANY($1)) ORDER BY s.id`,
        [accounts],
      ),
      t.db.query('SELECT * FROM idempotency_keys WHERE account_id = ANY($1) ORDER BY 1', [accounts]),
      t.db.query('SELECT * FROM webhook_endpoints WHERE account_id = ANY($1) ORDER BY id', [accounts]),
      t.db.query('SELECT * FROM webhook_events WHERE account_id = ANY($1) ORDER BY id', [accounts]),
      t.db.query('SELECT * FROM worker_blocks WHERE account_id = ANY($1) OR worker_id IN (SELECT id FROM users WHERE account_id = ANY($1)) ORDER BY id', [accounts]),
    ]);
    return JSON.stringify(tables);
  }

  /** How many rows each table holds: what an anonymous or refused request must not add to. */
  const rowCounts = async () =>
    JSON.stringify(
      await t.db.query(
        `SELECT (SELECT count(*) FROM accounts) AS accounts, (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM sessions) AS sessions,
                (SELECT count(*) FROM api_keys) AS api_keys, (SELECT count(*) FROM projects) AS projects, (SELECT count(*) FROM tasks) AS tasks,
                (SELECT count(*) FROM checkouts) AS checkouts, (SELECT count(*) FROM submissions) AS submissions,
                (SELECT count(*) FROM idempotency_keys) AS idempotency_keys, (SELECT count(*) FROM webhook_events) AS webhook_events,
                (SELECT count(*) FROM worker_blocks) AS worker_blocks`,
      ),
    );

  /** Runs `call` and expects the owner's rows, and every table's row count, to be as before. */
  async function changesNothing<T>(w: World, call: () => Promise<T>, counts = true): Promise<T> {
    const before = [await rowsOf(w), counts ? await rowCounts() : ''];
    const result = await call();
    expect([await rowsOf(w), counts ? await rowCounts() : '']).toEqual(before);
    return result;
  }

  const bearer = (who: SignedIn) => ({ authorization: `Bearer ${who.token}` });
  /** What the browser sends from our own pages: the cookie, and Sec-Fetch-Site saying so. */
  const cookie = (who: SignedIn) => ({ cookie: `cb_session=${who.token}`, 'sec-fetch-site': 'same-origin' });

  /** The 401 a caller without (valid) credentials of the route's kind gets. */
  function expectRefused(r: Route, res: TestResponse) {
    expect({ route: r.route, status: res.status }).toEqual({ route: r.route, status: 401 });
    expect(res.body).toEqual({ errors: [{ field: expect.any(String), detail: expect.any(String) }] });
  }

  /** The owner's credentials for the route's kind (the worker's for the worker app). */
  const ownerHeaders = (r: Route, w: World, key: 'live' | 'test' = 'live'): Record<string, string> => {
    switch (r.who) {
      case 'apiKey':
        return { apikey: key === 'live' ? w.owner.liveKey : w.owner.testKey };
      case 'worker':
        return cookie(w.worker);
      case 'signedIn':
      case 'requester':
        return cookie(w.owner);
      case 'metrics':
        return { authorization: `Bearer ${METRICS_TOKEN}` };
      default:
        return {};
    }
  };
  const strangerHeaders = (r: Route, s: Requester): Record<string, string> => (r.who === 'apiKey' ? { apikey: s.liveKey } : bearer(s));

  it('lists every route of the app, and no route the app lacks', () => {
    const routes = registered;
    expect(routes.length).toBeGreaterThan(MATRIX.length / 2); // the hook above saw the app's routes at all
    // Fastify answers HEAD on every GET route with the GET's handler (exposeHeadRoutes): no decision of its own.
    const gets = new Set(routes.filter((r) => r.startsWith('GET ')).map((r) => r.slice(4)));
    expect(routes.filter((r) => r.startsWith('HEAD ') && !gets.has(r.slice(5)))).toEqual([]);
    const app = routes.filter((r) => !r.startsWith('HEAD ')).sort();
    const table = MATRIX.map((r) => r.route).sort();
    expect({ inAppNotInTable: app.filter((r) => !table.includes(r)), inTableNotInApp: table.filter((r) => !app.includes(r)) }).toEqual({
      inAppNotInTable: [],
      inTableNotInApp: [],
    });
    expect(new Set(table).size).toBe(table.length);
  });

  describe.each(MATRIX)('$route ($who)', (r) => {
    const needsCredentials = r.who !== 'anyone' && r.who !== 'anonymous';

    if (needsCredentials) {
      it('refuses a caller without credentials, or with made-up ones: 401 in the contract shape, nothing changed', async () => {
        const anonymous = await changesNothing(world, () => send(r, world.ids, world, {}));
        expectRefused(r, anonymous);
        if (r.who === 'apiKey') expect(anonymous.body.errors).toEqual([{ field: 'apikey', detail: 'Missing header apikey' }]);
        if (methodOf(r) === 'GET') expect((await t.request({ method: 'HEAD', url: requestOf(r, world.ids, world).url })).status).toBe(401);
        const refused: Array<Record<string, string>> =
          r.who === 'apiKey'
            ? [{ apikey: `cb_live_${randomUUID()}` }, { apikey: world.revokedKey }]
            : r.who === 'metrics'
              ? [{ authorization: `Bearer ${randomUUID()}` }]
              : [{ authorization: `Bearer ${randomUUID()}` }, { authorization: `Bearer ${world.loggedOut}` }, { cookie: `cb_session=${world.loggedOut}` }];
        for (const headers of refused) expectRefused(r, await changesNothing(world, () => send(r, world.ids, world, headers)));
      });
    }

    if (r.who === 'apiKey') {
      it('does not take a session (cookie or Bearer), nor its own key as a Bearer token: the 401 of a missing key', async () => {
        for (const headers of [cookie(world.owner), bearer(world.owner), { authorization: `Bearer ${world.owner.liveKey}` }] as Array<Record<string, string>>) {
          const res = await changesNothing(world, () => send(r, world.ids, world, headers));
          expect({ route: r.route, status: res.status, body: res.body }).toEqual({
            route: r.route,
            status: 401,
            body: { errors: [{ field: 'apikey', detail: 'Missing header apikey' }] },
          });
        }
      });
    }

    if (SESSION_KINDS.includes(r.who)) {
      it('does not take an API key, in the apikey header or as a Bearer token', async () => {
        for (const headers of [{ apikey: world.owner.liveKey }, { authorization: `Bearer ${world.owner.liveKey}` }] as Array<Record<string, string>>) {
          expectRefused(r, await changesNothing(world, () => send(r, world.ids, world, headers)));
        }
      });
    }

    if (r.stranger === 'notFound') {
      it("answers a stranger on the owner's resource exactly as on one that does not exist, and changes nothing", async () => {
        const stranger = await aStranger();
        // The other party is a stranger too: the project's owner to its worker's lease, the worker to the project.
        const strangers = [{ who: 'another account', headers: strangerHeaders(r, stranger) }];
        if (r.who === 'worker') strangers.push({ who: 'the project owner', headers: bearer(world.owner) });
        if (r.who === 'requester') strangers.push({ who: 'its worker', headers: bearer(world.worker) });
        for (const { who, headers } of strangers) {
          const missing = await send(r, MISSING, world, headers);
          expect(missing.status).toBeLessThan(500);
          for (const { name, ids } of world.variants) {
            const foreign = await changesNothing(world, () => send(r, ids, world, headers), false);
            expect({ who, ids: name, status: foreign.status, body: foreign.body }).toEqual({ who, ids: name, status: missing.status, body: missing.body });
            if (methodOf(r) === 'GET') {
              const head = await t.request({ method: 'HEAD', url: requestOf(r, ids, world).url, headers });
              expect({ who, ids: name, head: head.status }).toEqual({ who, ids: name, head: missing.status });
            }
          }
        }
      });
    }

    if (r.stranger === 'ownOnly' || r.stranger === 'market') {
      it("gives a stranger nothing of the owner's, and changes none of the owner's rows", async () => {
        const stranger = await aStranger();
        const res = await changesNothing(world, () => send(r, world.ids, world, strangerHeaders(r, stranger)), false);
        expect(res.status).toBeLessThan(300);
        // The worker's list shows every account's open projects; the rest of the owner's is private.
        const secrets = r.stranger === 'market' ? world.secrets : [...world.secrets, world.ids.project, world.ids.task];
        expect(secrets.filter((secret) => res.text.includes(secret))).toEqual([]);
      });
    }

    if (r.who === 'apiKey' && r.stranger === 'notFound') {
      it("answers a stranger's test key with stand-in data, nothing of the owner's, and changes nothing", async () => {
        const stranger = await aStranger();
        const res = await changesNothing(world, () => send(r, world.ids, world, { apikey: stranger.testKey }));
        expect(res.status).toBeLessThan(300);
        const secrets = [...world.secrets, world.owner.projectUuid].filter((s) => !requestOf(r, world.ids, world).url.includes(s));
        expect(secrets.filter((secret) => res.text.includes(secret))).toEqual([]);
        expect(res.text).not.toContain("Owner's project");
        // The owner's own test key renders the owner's template (a dry run): what the stranger's must not see.
        if (pathOf(r).endsWith('/add_task')) expect((await send(r, world.ids, world, { apikey: world.owner.testKey })).text).toContain(world.secrets[0]);
      });
    }

    if (isWrite(r) && COOKIE_ROUTES.some((prefix) => pathOf(r).startsWith(prefix))) {
      it("refuses the owner's own write from another site (Sec-Fetch-Site, or Origin without it): 403, nothing changed", async () => {
        const { 'sec-fetch-site': _own, ...credentials } = ownerHeaders(r, world);
        for (const site of [{ 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }, { origin: EVIL }] as Array<Record<string, string>>) {
          const headers = { ...credentials, ...site };
          const res = await changesNothing(world, () => send(r, world.ids, world, headers));
          expect({ route: r.route, status: res.status, body: res.body }).toEqual({
            route: r.route,
            status: 403,
            body: { errors: [{ field: 'root', detail: expect.stringContaining('other sites') }] },
          });
        }
      });
    }

    if (isWrite(r) && r.who === 'apiKey') {
      it('answers a write from another site as any other: API keys are never sent by a browser on its own', async () => {
        // A test key: its answers are deterministic and nothing is written, so the two can be compared.
        const plain = await changesNothing(world, () => send(r, world.ids, world, ownerHeaders(r, world, 'test')));
        const foreign = await changesNothing(world, () => send(r, world.ids, world, { ...ownerHeaders(r, world, 'test'), origin: EVIL, 'sec-fetch-site': 'cross-site' }));
        expect(plain.status).toBe(r.ok);
        expect(foreign.text).toEqual(plain.text);
      });
    }

    it(`lets its caller through (${r.ok})`, async () => {
      // A write gets a world of its own: it may revoke the key, end the lease or the session.
      const w = isWrite(r) ? await aWorld() : world;
      const res = await send(r, w.ids, w, ownerHeaders(r, w));
      expect({ route: r.route, status: res.status, text: res.status === r.ok ? '' : res.text }).toEqual({ route: r.route, status: r.ok, text: '' });
      // Requester and worker are strangers to each other: a worker is a per-project pseudonym to the
      // requester (API.md §1), and a worker sees the task, not who posted it.
      const otherParty = r.who === 'worker' ? [w.owner.email, w.owner.userId, w.owner.accountId] : [w.worker.email, w.worker.userId, w.worker.accountId];
      if (r.who === 'worker' || r.who === 'requester' || r.who === 'apiKey') expect(otherParty.filter((secret) => res.text.includes(secret))).toEqual([]);
      // HEAD is the GET's handler (Fastify's exposeHeadRoutes), the same status without a body.
      if (methodOf(r) === 'GET') {
        const head = await t.request({ method: 'HEAD', url: requestOf(r, w.ids, w).url, headers: ownerHeaders(r, w) });
        expect({ route: r.route, head: head.status }).toEqual({ route: r.route, head: r.ok });
      }
      if (r.who === 'apiKey') {
        const test = await changesNothing(w, () => send(r, w.ids, w, ownerHeaders(r, w, 'test')));
        expect({ route: r.route, status: test.status, text: test.status === r.ok ? '' : test.text }).toEqual({ route: r.route, status: r.ok, text: '' });
      }
    });
  });

  it("keeps Idempotency-Keys per account: a stranger sending the owner's key and body is not answered the owner's task", async () => {
    const key = `matrix-${randomUUID()}`;
    const body = { task: { project_uuid: world.ids.project, substitutions: { object: 'car' } } };
    const owners = await t.request({ method: 'POST', url: '/api/v1/projects/add_task', headers: { apikey: world.owner.liveKey, 'idempotency-key': key }, body });
    expect(owners.status).toBe(201);
    const stranger = await aStranger();
    for (const apikey of [stranger.liveKey, stranger.testKey]) {
      const res = await changesNothing(world, () => t.request({ method: 'POST', url: '/api/v1/projects/add_task', headers: { apikey, 'idempotency-key': key }, body }), false);
      expect(res.text).not.toContain(owners.body.data.task_uuid);
      if (apikey === stranger.liveKey) expect(res.body).toEqual({ errors: [{ field: 'root', detail: 'project not found' }] });
    }
  });

  it("answers the owner naming another account's task in its own project as a task that does not exist", async () => {
    const stranger = await aStranger();
    const [{ id: strangersTask }] = await t.db.query('SELECT k.id FROM tasks k WHERE k.project_id = $1', [stranger.projectUuid]);
    for (const r of MATRIX.filter((route) => pathOf(route).includes(':taskUuid'))) {
      const foreign = await changesNothing(world, () => send(r, { ...world.ids, task: strangersTask }, world, ownerHeaders(r, world)));
      const missing = await send(r, { ...world.ids, task: MISSING.task }, world, ownerHeaders(r, world));
      expect({ route: r.route, status: foreign.status, body: foreign.body }).toEqual({ route: r.route, status: missing.status, body: missing.body });
      expect(foreign.status).toBe(404);
    }
  });

  // Last: it reads what every test above was answered.
  it('answers nothing the OpenAPI document does not list for the route (every status seen above)', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/docs/openapi.json' })).body as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    const paths = new Map(Object.entries(doc.paths).map(([path, operations]) => [fastifyPath(path), operations]));
    const undocumented: string[] = [];
    let checked = 0;
    for (const [route, statuses] of answered) {
      const [method, path] = route.split(' ');
      // The web app's files and Swagger UI's are not in the document.
      const operation = paths.get(path)?.[method.toLowerCase()];
      if (!operation) continue;
      checked++;
      for (const status of statuses) if (!(String(status) in operation.responses)) undocumented.push(`${route} ${status}`);
    }
    expect(checked).toBeGreaterThan(MATRIX.length / 2);
    expect(undocumented).toEqual([]);
  });
});
