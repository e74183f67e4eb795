import { applyDecorators } from '@nestjs/common';
import { PAGE_DEFAULT, PAGE_MAX } from '@crowdbox/contracts';
import { ApiBearerAuth, ApiCookieAuth, ApiHeader, ApiParam, ApiQuery, ApiResponse, ApiSecurity } from '@nestjs/swagger';
import type { ReferenceObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/**
 * The OpenAPI decorators that every controller repeats: its credential, its `{data: …}` success and the
 * error statuses it answers in the `{errors: [{field, detail}]}` envelope. Documentation only: none of
 * these changes what a route does (the guards, pipes and filter do that).
 */

/** Names of the security schemes openapi.ts declares. */
export const SECURITY = { apiKey: 'apikey', session: 'session', sessionCookie: 'session_cookie', metrics: 'metrics' } as const;

/** The tags, one per area, in the order Swagger UI lists them. */
export const TAGS = {
  requester: 'Requester API v1',
  sessions: 'Sessions',
  projects: 'Console projects',
  tasks: 'Console tasks and results',
  apiKeys: 'Console API keys',
  webhooks: 'Console webhooks',
  workers: 'Console workers',
  work: 'Worker API',
  health: 'Health and metrics',
} as const;

/** The `apikey` header (ApiKeyGuard): a live or a test key. */
export const ApiKeyAuth = (): ClassDecorator & MethodDecorator => ApiSecurity(SECURITY.apiKey);

/** A session (SessionGuard): `Authorization: Bearer <token>` or the session cookie (auth/session-cookie.ts), either one. */
export const ApiSessionAuth = (): ClassDecorator & MethodDecorator =>
  applyDecorators(ApiBearerAuth(SECURITY.session), ApiCookieAuth(SECURITY.sessionCookie));

const ERRORS = {
  400: 'The body is not JSON (or not UTF-8); field `body`.',
  401: 'No credential, or one that is not valid (unknown, revoked, expired or logged out).',
  403: 'Refused: a write to a cookie route from another site (Sec-Fetch-Site or Origin; send the session as a Bearer token instead), or what the route says.',
  404: 'Not found, or another account\u2019s: the two are answered alike.',
  409: 'Changed meanwhile: read it again and retry.',
  413: 'The body is over the route\u2019s limit; field `body`.',
  415: 'A body on a cookie route (session, console, worker) must be sent as `Content-Type: application/json`; field `body`.',
  422: 'A field is invalid (its dotted path in `field`), or what the route says.',
  429: 'Rate limited: the `Retry-After` header says when to retry.',
  503: 'Not ready: PostgreSQL does not answer.',
} as const;

export type ErrorStatus = keyof typeof ERRORS;

const ERROR_BODY: ReferenceObject = { $ref: '#/components/schemas/ErrorBody' };
const RETRY_AFTER = { 'Retry-After': { description: 'seconds to wait', schema: { type: 'integer' } } };

/**
 * The error responses a route answers, each with the error envelope; `details` replaces the generic
 * description of a status where the route's reason is its own (404 "no task available").
 */
export function ApiErrors(statuses: ErrorStatus[], details: Partial<Record<ErrorStatus, string>> = {}): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: details[status] ?? ERRORS[status],
        schema: ERROR_BODY,
        ...(status === 429 ? { headers: RETRY_AFTER } : {}),
      }),
    ),
  );
}

/** The error statuses of any JSON body: not JSON, too large. */
export const BODY_ERRORS: ErrorStatus[] = [400, 413];

/** A success wrapped in `data`, as every success of the API is (the paged lists carry `next_cursor` beside it). */
export function ApiData(status: 200 | 201 | 202, data: SchemaObject | ReferenceObject, description = 'Success.'): MethodDecorator & ClassDecorator {
  return ApiResponse({ status, description, schema: dataBody(data) });
}

export function dataBody(data: SchemaObject | ReferenceObject): SchemaObject {
  return { type: 'object', required: ['data'], properties: { data } };
}

/** A path parameter that is a UUID (read by IdParam, in either case). */
export const ApiUuidParam = (name: string, description: string): MethodDecorator & ClassDecorator =>
  ApiParam({ name, description, schema: { type: 'string', format: 'uuid' } });

/** `before` and `limit` of a keyset-paged list (libs/contracts paging.ts), described. */
export const ApiPageQuery = (): MethodDecorator & ClassDecorator =>
  applyDecorators(
    ApiQuery({ name: 'before', required: false, schema: { type: 'string' }, description: 'the `next_cursor` of the previous page; absent for the newest page' }),
    ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: PAGE_MAX, default: PAGE_DEFAULT }, description: 'rows a page holds' }),
  );

/** The optional `Idempotency-Key` header of a create (add_task, add_tasks, a console project). */
export const ApiIdempotencyKey = (): MethodDecorator & ClassDecorator =>
  ApiHeader({
    // As the generator names the header @Headers reads, so the two are one parameter.
    name: 'idempotency-key',
    required: false,
    description:
      '`Idempotency-Key`, 1 to 255 characters: the same key with the same body within 24 h replays the first response; with another body it is a 422 on `Idempotency-Key`.',
  });
