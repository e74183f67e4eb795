import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { cleanupOpenApiDoc } from 'nestjs-zod';

/** The OpenAPI document, generated from the controllers and the zod DTOs; Swagger UI at /api/docs. */
export function setupOpenApi(app: NestFastifyApplication): void {
  const config = new DocumentBuilder()
    .setTitle('Crowdbox API')
    .setDescription(
      'Requester API (/api/v1, Cogmint-compatible, `apikey` header), sessions, the console and the worker API. ' +
        'Every success is `{data: …}`; every error is `{errors: [{field, detail}]}`.',
    )
    .setVersion('1')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'apikey' }, 'apikey')
    .addBearerAuth()
    .build();
  const document = SwaggerModule.createDocument(app, config);
  SwaggerModule.setup('api/docs', app, cleanupOpenApiDoc(document), { jsonDocumentUrl: 'api/docs/openapi.json' });
}
