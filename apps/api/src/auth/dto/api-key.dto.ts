import { createApiKeyBodySchema } from '@crowdbox/contracts';
import { createZodDto } from 'nestjs-zod';

export class CreateApiKeyDto extends createZodDto(createApiKeyBodySchema) {}
