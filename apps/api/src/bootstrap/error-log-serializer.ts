import { stdSerializers, type SerializedError } from 'pino';

/**
 * Fields of an error that hold the values a statement ran with rather than what went wrong. TypeORM's
 * QueryFailedError keeps the statement's `parameters` (the email of a log-in, the password hash of a
 * sign-up) and pg's own error as `driverError`, whose fields it also copies onto itself; pg's `detail`
 * quotes the key or row a constraint refused ("Key (email)=(…) already exists", "Failing row contains
 * (…)"), and `where` can quote a statement a function built from values. The SQL (`query`) stays: ours
 * is always parameterized, so it holds `$1`, not values, and it says which statement failed.
 */
const VALUE_FIELDS = ['parameters', 'driverError', 'detail', 'where'] as const;

/**
 * pino's `err` serializer without VALUE_FIELDS, on the error and on the errors pino serialized inside
 * it (AggregateError's). Only the serializer's own copies are changed, never the error thrown.
 */
export function errWithoutValues(err: Error): SerializedError {
  const serialized = stdSerializers.err(err);
  // Not an error (pino hands it back as it is): nothing of ours to change.
  if ((serialized as unknown) !== err) scrub(serialized, Object.getPrototypeOf(serialized) as object);
  return serialized;
}

function scrub(serialized: SerializedError, proto: object): void {
  const fields = serialized as unknown as Record<string, unknown>;
  for (const field of VALUE_FIELDS) delete fields[field];
  for (const value of Object.values(fields)) {
    const nested = Array.isArray(value) ? value : [value];
    for (const item of nested) {
      // Copies the serializer made have its prototype; anything else is the error's own object.
      if (typeof item === 'object' && item !== null && Object.getPrototypeOf(item) === proto) scrub(item as SerializedError, proto);
    }
  }
}
