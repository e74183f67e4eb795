import { consoleProjectListQuerySchema, createProjectBodySchema, updateProjectBodySchema } from '@crowdbox/contracts';
import { createZodDto } from 'nestjs-zod';

export class CreateProjectDto extends createZodDto(createProjectBodySchema) {}
export class UpdateProjectDto extends createZodDto(updateProjectBodySchema) {}
export class ConsoleProjectListQueryDto extends createZodDto(consoleProjectListQuerySchema) {}
