import { checkoutBodySchema, releaseBodySchema, submitBodySchema, workSubmissionsQuerySchema } from '@crowdbox/contracts';
import { createZodDto } from 'nestjs-zod';

export class CheckoutDto extends createZodDto(checkoutBodySchema) {}
export class SubmitDto extends createZodDto(submitBodySchema) {}
export class ReleaseDto extends createZodDto(releaseBodySchema) {}
export class WorkSubmissionsQueryDto extends createZodDto(workSubmissionsQuerySchema) {}
