import type { ErrorItem } from '@crowdbox/contracts';

/**
 * The one error type of the API. Features create theirs through small factories (see `*.errors.ts`);
 * the global filter turns it into `{errors:[{field, detail}]}` with `status`.
 */
export class ApiException extends Error {
  constructor(
    readonly status: number,
    readonly errors: ErrorItem[],
    readonly headers: Record<string, string> = {},
  ) {
    super(errors.map((e) => `${e.field}: ${e.detail}`).join('; '));
  }

  static of(status: number, field: string, detail: string, headers?: Record<string, string>): ApiException {
    return new ApiException(status, [{ field, detail }], headers);
  }

  static unprocessable(field: string, detail: string): ApiException {
    return ApiException.of(422, field, detail);
  }

  static notFound(detail: string): ApiException {
    return ApiException.of(404, 'root', detail);
  }
}
