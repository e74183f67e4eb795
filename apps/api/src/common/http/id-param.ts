import { Param, type PipeTransform } from '@nestjs/common';

/** Lower-cases the path's id; what it is (a UUID or not) is the route's own check, after. */
class LowerCase implements PipeTransform<string, string> {
  transform(value: string): string {
    return value.toLowerCase();
  }
}

const LOWER_CASE = new LowerCase();

/**
 * A resource id from the path (`:uuid`, `:id`, `:taskUuid`), in lower case: the one way a route reads
 * one. A UUID's hex digits mean the same in either case (RFC 9562) and the routes take both, but
 * PostgreSQL writes them in lower case, and what is keyed by an id as a string (the project cache, a
 * lease's expiry job, an event's delivery job, test keys' seeded answers, the ids an answer echoes)
 * must use the stored spelling, or an upper-case URL reaches a second copy or none. ESLint refuses
 * Nest's `Param` elsewhere in the API (eslint.config.mjs).
 */
export const IdParam = (name: string): ParameterDecorator => Param(name, LOWER_CASE);
