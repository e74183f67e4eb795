import { ModulesContainer } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { cleanupOpenApiDoc, type ZodDto } from 'nestjs-zod';
import { z } from 'zod';
import { SECURE_SESSION_COOKIE, SESSION_COOKIE } from '../auth/session-cookie';
import { SECURITY, TAGS } from '../common/http/api-docs';
import { RESPONSE_SCHEMAS } from './openapi-schemas';

const DESCRIPTION = `Requester API (\`/api/v1\`, Cogmint-compatible, \`apikey\` header), sessions, the console and the worker API.
Every success is \`{data: …}\`; every error is \`{errors: [{field, detail}]}\` (schema \`ErrorBody\`).

A session is the token that sign-up and log-in answer, sent as \`Authorization: Bearer <token>\` or as the
httpOnly \`${SECURE_SESSION_COOKIE}\` cookie the same calls set (\`${SESSION_COOKIE}\` over plain HTTP). Writes with the cookie must come from our own pages
(\`Sec-Fetch-Site\`/\`Origin\`), with \`Content-Type: application/json\`.

## Webhooks

Crowdbox sends these to a task's \`callback_url\` (OpenAPI 3.0 has no webhooks section: their bodies are the
components \`WebhookChallenge\` and \`WebhookTaskCompleted\`).

- **challenge**: a URL new to the account is first sent \`POST url\` \`{"event":"challenge","data":{"token":"<random>"}}\`;
  it must answer 2xx with \`{"token":"<same>"}\`. Until then its events wait.
- **task_completed**: \`{"event":"task_completed","id":"<event uuid>","created_at":"<ISO 8601>","data":{"task":Task,"annotations":TaskAnnotationsRecord}}\`.

Headers (Standard Webhooks): \`webhook-id\` (the event id: dedupe on it), \`webhook-timestamp\` (unix seconds),
\`webhook-signature: v1,<base64 HMAC-SHA256 over "id.timestamp.body">\` with the account's signing secret
(\`whsec_<base64>\`, in the console; during a rotation, one signature per secret, space-separated).
Delivery is at least once; a 2xx is success; network errors, timeouts, 408, 425, 429 and 5xx are retried
over about two days, other 4xx fail the event, which the console can redeliver.`;

/** The OpenAPI document, generated from the controllers and the zod DTOs; Swagger UI at /api/docs. */
export function setupOpenApi(app: NestFastifyApplication): void {
  SwaggerModule.setup('api/docs', app, openApiDocument(app), { jsonDocumentUrl: 'api/docs/openapi.json' });
}

export function openApiDocument(app: NestFastifyApplication): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Crowdbox API')
    .setDescription(DESCRIPTION)
    .setVersion('1')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'apikey', description: 'A live (`cb_live_…`) or test (`cb_test_…`) API key.' }, SECURITY.apiKey)
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'The session token from sign-up or log-in.' }, SECURITY.session)
    .addCookieAuth(
      SECURE_SESSION_COOKIE,
      { type: 'apiKey', in: 'cookie', name: SECURE_SESSION_COOKIE, description: `The session cookie sign-up and log-in set; \`${SESSION_COOKIE}\` over plain HTTP.` },
      SECURITY.sessionCookie,
    )
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: '`METRICS_TOKEN` (GET /metrics only).' }, SECURITY.metrics);
  for (const tag of Object.values(TAGS)) builder.addTag(tag);
  const document = cleanupOpenApiDoc(SwaggerModule.createDocument(app, builder.build()));
  const schemas = { ...document.components?.schemas };
  // @nestjs/swagger reads a nullable string's `type: ["string", "null"]` (JSON Schema, OpenAPI 3.1) as
  // an array, and nestjs-zod leaves that syntax in a 3.0 document: add_task's body came out invalid. Zod
  // writes a body's schema for OpenAPI 3.0 itself, so each body DTO's component is zod's own.
  for (const [name, dto] of bodyDtos(app)) if (name in schemas) schemas[name] = openApi30(dto);
  return { ...document, components: { ...document.components, schemas: { ...schemas, ...RESPONSE_SCHEMAS } } };
}

/** Every zod DTO a controller method takes, by class name (the component's name). */
function bodyDtos(app: NestFastifyApplication): Map<string, ZodDto> {
  const dtos = new Map<string, ZodDto>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const { metatype } of module.controllers.values()) {
      const prototype = (metatype as { prototype?: object } | null)?.prototype;
      if (!prototype) continue;
      for (const method of Object.getOwnPropertyNames(prototype)) {
        const types: unknown[] = Reflect.getMetadata('design:paramtypes', prototype, method) ?? [];
        for (const type of types) if (isZodDto(type)) dtos.set(type.name, type);
      }
    }
  }
  return dtos;
}

const isZodDto = (type: unknown): type is ZodDto & { name: string } => typeof type === 'function' && (type as { isZodDto?: unknown }).isZodDto === true;

function openApi30(dto: ZodDto): SchemaObject {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(dto.schema as z.ZodType, { io: 'input', target: 'openapi-3.0', unrepresentable: 'any' });
  return schema as SchemaObject;
}
