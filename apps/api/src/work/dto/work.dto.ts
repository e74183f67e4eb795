import { checkoutBodySchema, submitBodySchema, workSubmissionsQuerySchema } from '@crowdbox/contracts';
import { createZodDto } from 'nestjs-zod';

export class CheckoutDto extends createZodDto(checkoutBodySchema) {}
export class SubmitDto extends createZodDto(submitBodySchema) {}
export class WorkSubmissionsQueryDto extends createZodDto(workSubmissionsQuerySchema) {}
