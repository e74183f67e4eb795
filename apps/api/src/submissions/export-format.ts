import { applyDecorators } from '@nestjs/common';
import { ApiOkResponse, ApiQuery } from '@nestjs/swagger';
import { ref } from '../bootstrap/openapi-schemas';
import { ApiException } from '../common/errors/api.exception';
import { dataBody } from '../common/http/api-docs';

/** The formats of a project's export (`?format`), JSON by default. */
export const EXPORT_FORMATS = ['json', 'coco', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const isExportFormat = (format: string): format is ExportFormat => (EXPORT_FORMATS as readonly string[]).includes(format);

/** `?format`: absent (or empty, on the requester API) for JSON; any other value is the contract's 422 on `format`. */
export function parseFormat(format: string | undefined, emptyIsJson = true): ExportFormat {
  if (format === undefined || (emptyIsJson && format === '')) return 'json';
  if (isExportFormat(format)) return format;
  throw ApiException.unprocessable('format', 'must be "json", "coco" or "csv"');
}

/** The Content-Type of an export in `format`. */
export function exportContentType(format: ExportFormat): string {
  return format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8';
}

/** The OpenAPI of an export's `?format` and its answer in each format, for both routes that serve it. */
export const ApiExport = (): MethodDecorator =>
  applyDecorators(
    ApiQuery({ name: 'format', required: false, enum: EXPORT_FORMATS, description: 'default `json`' }),
    ApiOkResponse({
      description: '`json`: `{data: [ProjectAnnotationsEntry]}`; `coco`: a COCO file; `csv`: text/csv.',
      content: {
        'application/json': { schema: dataBody({ type: 'array', items: ref('ProjectAnnotationsEntry') }) },
        'text/csv': { schema: { type: 'string' } },
      },
    }),
  );
