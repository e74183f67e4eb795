import { checkoutBodySchema, submitBodySchema } from '@crowdbox/contracts';
import { createZodDto } from 'nestjs-zod';

export class CheckoutDto extends createZodDto(checkoutBodySchema) {}
export class SubmitDto extends createZodDto(submitBodySchema) {}
