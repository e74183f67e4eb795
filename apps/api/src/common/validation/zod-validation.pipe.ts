import type { ErrorItem } from '@crowdbox/contracts';
import { createZodValidationPipe } from 'nestjs-zod';
import type { ZodError } from 'zod';
import { ApiException } from '../errors/api.exception';

/** Zod issues as the contract's error items: the dotted path is the field, `root` when there is none. */
export function zodIssuesToErrors(error: ZodError): ErrorItem[] {
  return error.issues.map((issue) => ({
    field: issue.path.length > 0 ? issue.path.map(String).join('.') : 'root',
    detail: issue.message,
  }));
}

/**
 * Validates every `@Body()`/`@Query()` typed with a `createZodDto` class; a bad request becomes a 422
 * that names each bad field. Registered once, globally.
 */
export const ZodValidationPipe = createZodValidationPipe({
  createValidationException: (error) => new ApiException(422, zodIssuesToErrors(error as ZodError)),
});
