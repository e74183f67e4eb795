import { consoleTaskListQuerySchema } from '@crowdbox/contracts';
import { createZodDto } from 'nestjs-zod';

export class ConsoleTaskListQueryDto extends createZodDto(consoleTaskListQuerySchema) {}
