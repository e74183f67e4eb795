import { ACCOUNT_EXPORT_FORMAT, TASK_PROBLEMS, TASK_STATES, WORKER_PSEUDONYM } from '@crowdbox/contracts';
import type { ReferenceObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/**
 * The OpenAPI components of what the API answers and sends: the wire types of libs/contracts (TypeScript
 * interfaces there, so stated here once as JSON Schema), the error envelope, and the webhook payloads.
 * openapi.ts adds them to the generated document; the controllers point at them through ref().
 */

type Schema = SchemaObject | ReferenceObject;

export const ref = (name: keyof typeof RESPONSE_SCHEMAS): ReferenceObject => ({ $ref: `#/components/schemas/${name}` });

const str: SchemaObject = { type: 'string' };
const int: SchemaObject = { type: 'integer' };
const num: SchemaObject = { type: 'number' };
const bool: SchemaObject = { type: 'boolean' };
const uuid: SchemaObject = { type: 'string', format: 'uuid' };
const time: SchemaObject = { type: 'string', format: 'date-time' };
const cents: SchemaObject = { type: 'integer', description: 'US cents' };
const nullable = (schema: SchemaObject): SchemaObject => ({ ...schema, nullable: true });
const list = (items: Schema): SchemaObject => ({ type: 'array', items });

/** An object whose every property is required unless named in `optional`. */
function object(properties: Record<string, Schema>, description?: string, optional: string[] = []): SchemaObject {
  return { type: 'object', ...(description ? { description } : {}), required: Object.keys(properties).filter((k) => !optional.includes(k)), properties };
}

const annotation = {
  label: str,
  center_x: num,
  center_y: num,
  width: num,
  height: num,
};

export const RESPONSE_SCHEMAS = {
  ErrorItem: object(
    { field: { type: 'string', description: 'a dotted path into the body, a header name, or `root`' }, detail: { type: 'string', description: 'what is wrong, in plain words' } },
    'One problem with the request.',
  ),
  ErrorBody: object({ errors: { type: 'array', minItems: 1, items: { $ref: '#/components/schemas/ErrorItem' } } }, 'The only error body the API writes.'),

  // The requester API (/api/v1), in the Cogmint seed spec's field order.
  Task: object(
    {
      prompt: { type: 'string', description: 'the project template rendered with the substitutions (HTML)' },
      task_uuid: uuid,
      reward: cents,
      callback_url: nullable({ type: 'string', format: 'uri' }),
      required_submissions: int,
      submission_count: int,
      checked_out_at: nullable({ ...time, description: 'the most recent checkout still active; null when no worker holds the task' }),
      allowed_completion_time_seconds: int,
      external_image_url: nullable({ type: 'string', format: 'uri' }),
      submissions: list({ ...uuid, description: 'submission UUIDs, oldest first' }),
    },
    'A task ("worktask").',
  ),
  Project: object({
    allowed_completion_time_seconds: int,
    available_task_count: int,
    average_outstanding_task_reward_cents: cents,
    default_required_submissions: int,
    default_reward: cents,
    display_name: str,
    display_short_description: str,
    has_published_tasks: bool,
    lifetime_payments_to_workers_cents: cents,
    name: str,
    uuid,
  }),
  Annotation: object(annotation, 'A box in pixels of the original image: origin top-left, x right, y down.'),
  ConsensusAnnotation: object(
    { ...annotation, support: { type: 'integer', description: 'how many workers drew it' }, agreement: { type: 'number', description: 'mean IoU inside its cluster, 0 to 1' } },
    'A consensus box.',
  ),
  WorkerSubmission: object({
    submission_id: uuid,
    worker: { type: 'string', description: 'a per-project pseudonym, never an email' },
    annotations: list({ $ref: '#/components/schemas/Annotation' }),
    submitted_at: time,
  }),
  TaskAnnotationsRecord: object(
    {
      task_uuid: uuid,
      completed: bool,
      completed_at: nullable(time),
      annotations: list({ $ref: '#/components/schemas/ConsensusAnnotation' }),
      submissions: { ...list({ $ref: '#/components/schemas/WorkerSubmission' }), description: 'with `?view=submissions` only' },
    },
    undefined,
    ['submissions'],
  ),
  ProjectAnnotationsEntry: object(
    {
      task_uuid: uuid,
      external_image_url: nullable({ type: 'string', format: 'uri' }),
      completed_at: time,
      annotations: list({ $ref: '#/components/schemas/ConsensusAnnotation' }),
      submissions: { ...list({ $ref: '#/components/schemas/WorkerSubmission' }), description: 'with `?view=submissions` only' },
    },
    undefined,
    ['submissions'],
  ),
  Ping: object({
    ok: { type: 'boolean', enum: [true] },
    mode: { type: 'string', enum: ['live', 'test'] },
    valid: { type: 'boolean', enum: [true] },
    production_key: { type: 'boolean', description: 'true for a live key (what Cogmint answers)' },
  }),

  // Sessions.
  User: object({ id: uuid, account_id: uuid, email: { type: 'string', format: 'email' }, name: str, created_at: time }),
  Session: object({
    user: { $ref: '#/components/schemas/User' },
    token: { type: 'string', description: 'the session token: send it as `Authorization: Bearer <token>` (the same call also sets the session cookie, `__Host-cb_session`, or `cb_session` over plain HTTP)' },
  }),
  Me: object({ user: { $ref: '#/components/schemas/User' } }),
  SessionInfo: object({
    id: uuid,
    created_at: time,
    expires_at: time,
    last_used_at: { ...nullable(time), description: 'to the minute; null until first used after sign-in' },
    user_agent: { ...nullable(str), description: 'the browser it signed in from (its first 512 characters)' },
    client_address: { ...nullable(str), description: 'the address it signed in from' },
    current: { ...bool, description: 'the session that asked' },
  }),
  EndedSession: object({ id: uuid, current: { ...bool, description: "the caller's own session: it is signed out and its cookie cleared" } }),
  Ok: object({ ok: { type: 'boolean', enum: [true] } }),
  SignedOutSessions: object({ signed_out_sessions: { type: 'integer', description: "how many of the user's other sessions were ended" } }),
  ChangedPassword: object({
    ok: { type: 'boolean', enum: [true] },
    signed_out_sessions: int,
    token: { type: 'string', description: "This device's new session token (also set as the cookie); the token that asked no longer works." },
  }),
  DeletedAccount: object({ deleted: { type: 'boolean', enum: [true] } }),

  // The console.
  ApiKey: object({ id: uuid, mode: { type: 'string', enum: ['live', 'test'] }, prefix: str, created_at: time, last_used_at: nullable(time), revoked_at: nullable(time) }),
  CreatedApiKey: object({
    id: uuid,
    mode: { type: 'string', enum: ['live', 'test'] },
    prefix: str,
    secret: { type: 'string', description: 'the key itself: shown in this reply only' },
    created_at: time,
  }),
  Label: object({ name: str, color: { type: 'string', description: 'CSS colour, #rrggbb' } }),
  ConsoleProject: object({
    uuid,
    name: str,
    display_name: str,
    display_short_description: str,
    default_required_submissions: int,
    default_reward: cents,
    allowed_completion_time_seconds: int,
    has_published_tasks: bool,
    available_task_count: int,
    average_outstanding_task_reward_cents: cents,
    lifetime_payments_to_workers_cents: cents,
    template: str,
    variables: { type: 'object', description: 'template variable name to its default (null: none)', additionalProperties: nullable(str) },
    labels: list({ $ref: '#/components/schemas/Label' }),
    image_variable: str,
    consensus_iou_threshold: num,
    created_at: time,
    updated_at: time,
    archived_at: nullable(time),
  }),
  ConsoleProjectsPage: object({
    data: list({ $ref: '#/components/schemas/ConsoleProject' }),
    next_cursor: nullable({ type: 'string', description: 'the `before` of the next page; null at the end' }),
    counts: object({ in_use: int, archived: int }, "the account's projects in use and archived, whatever the filter"),
  }),
  CancelOutstandingResult: object({
    cancelled: int,
    unspent_reward_cents: { ...cents, description: 'what the cancelled tasks will no longer pay' },
    ended_checkouts: int,
  }),
  BlockedWorker: object({
    id: { ...uuid, description: 'the block: what DELETE /api/console/blocked_workers/:id takes' },
    worker: { type: 'string', pattern: WORKER_PSEUDONYM.source, description: "the worker's pseudonym in `project`" },
    project: object({ uuid, display_name: str }),
    blocked_at: time,
  }),
  BlockWorkerResult: object({
    id: uuid,
    worker: { type: 'string', pattern: WORKER_PSEUDONYM.source },
    project: object({ uuid, display_name: str }),
    blocked_at: time,
    created: { type: 'boolean', description: 'false when the worker was blocked already' },
    ended_checkouts: { ...int, description: "the worker's active leases on the account's tasks that the block ended" },
  }),
  ProjectWorkers: object({
    tasks_read: { ...int, description: 'the latest completed tasks read: 1,000 at most, fewer when their boxes are very many' },
    workers: list(
      object({
        worker: { type: 'string', pattern: WORKER_PSEUDONYM.source },
        submissions: int,
        last_submitted_at: time,
        compared_tasks: { ...int, description: 'their tasks that had other submissions too' },
        boxes: int,
        peer_boxes: { ...int, description: "the boxes of the other workers' consensus on the compared tasks" },
        matched: { ...int, description: 'pairs of one box of theirs and one of the peers, of one label, at the IoU threshold' },
        agreement: nullable({ ...num, description: '2 x matched / (boxes + peer_boxes); 1 when both are 0; null without a compared task' }),
        precision: nullable({ ...num, description: 'matched / boxes' }),
        recall: nullable({ ...num, description: 'matched / peer_boxes' }),
        block_id: nullable({ ...uuid, description: "the account's block of this worker" }),
      }),
    ),
  }),
  ProjectProgress: object({
    tasks: object({ total: int, complete: int, outstanding: int, cancelled: int, reported: int }),
    submissions: int,
    paid_cents: cents,
    committed_cents: { ...cents, description: 'what outstanding tasks will still pay' },
    daily: { ...list(object({ day: { type: 'string', format: 'date' }, created: int, completed: int })), description: 'the last 30 UTC days, oldest first' },
  }),
  ConsoleTaskRow: object({
    task_uuid: uuid,
    state: { type: 'string', enum: [...TASK_STATES] },
    external_image_url: nullable(str),
    reward: cents,
    required_submissions: int,
    submission_count: int,
    active_checkouts: int,
    problem_reports: int,
    created_at: time,
    completed_at: nullable(time),
    cancelled_at: nullable(time),
  }),
  ConsoleTaskDetail: {
    allOf: [
      { $ref: '#/components/schemas/ConsoleTaskRow' },
      object({
        prompt: str,
        labels: list({ $ref: '#/components/schemas/Label' }),
        frame: nullable({ ...object({ width: int, height: int }), description: "the image size the boxes' pixels are in; null before any submission" }),
        problems: list(object({ problem: { type: 'string', enum: [...TASK_PROBLEMS] }, count: int, last_reported_at: time })),
        results: { $ref: '#/components/schemas/TaskAnnotationsRecord' },
        blocked_workers: { ...list({ type: 'string', pattern: WORKER_PSEUDONYM.source }), description: "the pseudonyms among `results.submissions`' workers that the account blocked" },
        peer_agreement: {
          ...list(object({ worker: { type: 'string', pattern: WORKER_PSEUDONYM.source }, boxes: int, peer_boxes: int, matched: int })),
          description: "each worker's boxes against the consensus of the task's other workers; empty with fewer than two submissions",
        },
      }),
    ],
  },
  ConsoleTaskPage: object({
    data: list({ $ref: '#/components/schemas/ConsoleTaskRow' }),
    next_cursor: nullable({ type: 'string', description: 'the `before` of the next page; null at the end' }),
  }),
  WebhookEndpoint: object({ url: str, state: str, confirmed_at: nullable(time), last_error: nullable(str), created_at: time }),
  WebhookSettings: object({
    signing_secret: { type: 'string', description: '`whsec_<base64>`' },
    previous_secret_expires_at: nullable({ ...time, description: 'while the secret a rotation replaced still signs beside this one: until when' }),
    endpoints: list({ $ref: '#/components/schemas/WebhookEndpoint' }),
  }),
  WebhookAttempt: object({ attempted_at: time, status_code: nullable(int), duration_ms: int, error: nullable(str), response_excerpt: nullable(str) }),
  WebhookEvent: object({
    id: uuid,
    type: { type: 'string', example: 'task_completed' },
    task_uuid: nullable(uuid),
    url: nullable(str),
    state: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
    attempt_count: int,
    next_attempt_at: nullable(time),
    delivered_at: nullable(time),
    created_at: time,
    attempts: list({ $ref: '#/components/schemas/WebhookAttempt' }),
  }),
  Redelivered: object({ redelivered: int, more: { type: 'boolean', description: 'failed events are left: call again' } }),
  RedeliveredEvent: object({ id: uuid, state: str }),

  // The worker API.
  WorkProject: object({
    uuid,
    display_name: str,
    display_short_description: str,
    reward: { ...cents, description: 'the highest reward of the tasks this worker could take' },
    min_reward: { ...cents, description: 'the lowest' },
    allowed_completion_time_seconds: int,
    available_task_count: int,
  }),
  Checkout: object(
    {
      checkout_id: uuid,
      task_uuid: uuid,
      project_uuid: uuid,
      prompt: { type: 'string', description: 'sanitized HTML' },
      external_image_url: nullable(str),
      labels: list({ $ref: '#/components/schemas/Label' }),
      max_boxes: { type: 'integer', description: 'the most boxes a submission of this task may hold' },
      reward: cents,
      checked_out_at: time,
      expires_at: time,
    },
    'A lease on one task.',
    ['max_boxes'],
  ),
  LeaseState: object({ checkout_id: uuid, state: { type: 'string', example: 'active' } }),
  SubmitResult: object({ submission_id: uuid, reward: cents }),
  Earnings: object({
    submission_count: int,
    earned_cents: cents,
    projects: list(object({ project_uuid: uuid, display_name: str, submission_count: int, earned_cents: cents })),
  }),
  WorkSubmission: object({
    submission_id: uuid,
    submitted_at: time,
    project: object({ uuid, display_name: str }),
    task_uuid: uuid,
    box_count: int,
    reward: cents,
    task_complete: bool,
    task_cancelled: bool,
  }),
  AccountExport: object(
    {
      format: { type: 'string', enum: [ACCOUNT_EXPORT_FORMAT] },
      exported_at: time,
      user: { $ref: '#/components/schemas/User' },
      account: object({ id: uuid, name: str, created_at: time }),
      sessions: list({ $ref: '#/components/schemas/SessionInfo' }),
      api_keys: list({ $ref: '#/components/schemas/ApiKey' }),
      projects: list({ $ref: '#/components/schemas/ConsoleProject' }),
      webhook_endpoints: list({ $ref: '#/components/schemas/WebhookEndpoint' }),
      blocked_workers: list({ $ref: '#/components/schemas/BlockedWorker' }),
      submissions: list(
        object(
          {
            submission_id: uuid,
            submitted_at: time,
            project: object({ uuid, display_name: str }),
            task_uuid: uuid,
            image_width: int,
            image_height: int,
            boxes: list({ $ref: '#/components/schemas/Annotation' }),
            reward: cents,
          },
          'One submission made as a worker, newest first; the boxes as sent, in the task\'s frame.',
        ),
      ),
    },
    "The signed-in user's data. No secrets: no password or key hash, session token or webhook signing secret.",
  ),
  WorkSubmissionsPage: object({
    data: list({ $ref: '#/components/schemas/WorkSubmission' }),
    next_cursor: nullable({ type: 'string', description: 'the `before` of the next page; null at the end' }),
  }),

  // Probes.
  Health: object({ ok: { type: 'boolean', enum: [true] } }),
  Readiness: object({
    ok: { type: 'boolean', enum: [true] },
    postgres: { type: 'string', enum: ['ok'] },
    redis: { type: 'string', description: '`ok`, or why not: the API serves without Redis, degraded' },
  }),

  // What the API sends to a requester's callback_url (API.md §2).
  WebhookChallenge: object(
    { event: { type: 'string', enum: ['challenge'] }, data: object({ token: str }) },
    'Sent once to a callback URL new to the account, before any data: answer 2xx with `{"token": "<the same token>"}`.',
  ),
  WebhookTaskCompleted: object(
    {
      event: { type: 'string', enum: ['task_completed'] },
      id: { ...uuid, description: 'the event id, also in the `webhook-id` header: dedupe on it' },
      created_at: time,
      data: object({ task: { $ref: '#/components/schemas/Task' }, annotations: { $ref: '#/components/schemas/TaskAnnotationsRecord' } }),
    },
    'Sent to the callback_url when the task has its required submissions. Delivered at least once.',
  ),
} satisfies Record<string, Schema>;
