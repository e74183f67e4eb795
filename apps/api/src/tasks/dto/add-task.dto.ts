import { addTaskBodySchema, addTasksBodySchema } from '@crowdbox/contracts';
import { createZodDto } from 'nestjs-zod';

export class AddTaskDto extends createZodDto(addTaskBodySchema) {}
export class AddTasksDto extends createZodDto(addTasksBodySchema) {}
