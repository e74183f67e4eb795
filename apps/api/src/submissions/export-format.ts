import { ApiException } from '../common/errors/api.exception';

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
