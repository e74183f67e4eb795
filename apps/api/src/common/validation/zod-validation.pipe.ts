import type { ErrorItem } from '@crowdbox/contracts';
import { createZodValidationPipe } from 'nestjs-zod';
import type { ZodError } from 'zod';
import { ApiException } from '../errors/api.exception';

/**
 * Zod issues as the contract's error items: the dotted path is the field, `root` when there is none.
 * An item said twice is said once: a check may fail two ways with one message (intBetween's 10^20 is
 * past both `.int()`'s safe range and `.max()`), and the answer named the field twice.
 */
export function zodIssuesToErrors(error: ZodError): ErrorItem[] {
  const items = new Map<string, ErrorItem>();
  for (const issue of error.issues) {
    const item = { field: issue.path.length > 0 ? issue.path.map(String).join('.') : 'root', detail: issue.message };
    items.set(JSON.stringify([item.field, item.detail]), item);
  }
  return [...items.values()];
}

/**
 * Validates every `@Body()`/`@Query()` typed with a `createZodDto` class; a bad request becomes a 422
 * that names each bad field. Registered once, globally.
 */
export const ZodValidationPipe = createZodValidationPipe({
  createValidationException: (error) => new ApiException(422, zodIssuesToErrors(error as ZodError)),
});
