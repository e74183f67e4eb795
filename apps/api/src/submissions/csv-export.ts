import { boxToRect } from '@crowdbox/boxes';
import type { ConsensusAnnotation } from '@crowdbox/contracts';
import { stringify } from 'csv-stringify/sync';

/** The CSV export's columns, in order: its header row. */
export const CSV_COLUMNS = [
  'task_uuid',
  'external_image_url',
  'completed_at',
  'image_width',
  'image_height',
  'label',
  'x_min',
  'y_min',
  'x_max',
  'y_max',
  'support',
  'agreement',
] as const;

/** A complete task as the CSV export writes it: its frame (0 x 0 without any submission) and its consensus boxes. */
export interface CsvTask {
  id: string;
  external_image_url: string | null;
  completed_at: Date | string;
  width: number;
  height: number;
  boxes: ConsensusAnnotation[];
}

type Cell = string | number | null;

/**
 * RFC 4180: CRLF between records, and a field holding a comma, a quote, a CR or an LF is quoted (a
 * quote doubled). csv-stringify quotes a lone LF only when LF is the record delimiter, hence
 * quoted_match. No formula escaping (docs/decisions.md, "CSV export").
 */
const toCsv = (records: Cell[][]) => stringify(records, { record_delimiter: 'windows', quoted_match: /[\r\n]/ });

/**
 * One record per consensus box, its corners boxToRect's (the same transform as COCO's bbox); a task
 * without boxes gets one record with the box columns empty, so an image with nothing in it stays in
 * the file as a negative.
 */
function taskRecords(task: CsvTask): Cell[][] {
  const completedAt = typeof task.completed_at === 'string' ? task.completed_at : task.completed_at.toISOString();
  const head: Cell[] = [task.id, task.external_image_url, completedAt, task.width, task.height];
  if (task.boxes.length === 0) return [[...head, null, null, null, null, null, null, null]];
  return task.boxes.map((box) => {
    const { x0, y0, x1, y1 } = boxToRect(box);
    return [...head, box.label, x0, y0, x1, y1, box.support, box.agreement];
  });
}

/**
 * A CSV file of complete tasks, one chunk per page. The header goes out with the first page: until a
 * stream's first chunk, an error (a busy pool) is still answered as an error (see jsonExport in
 * annotations.service.ts).
 */
export async function* csvExport(pages: AsyncIterable<CsvTask[]>): AsyncIterable<string> {
  let header = toCsv([[...CSV_COLUMNS]]);
  for await (const tasks of pages) {
    yield header + toCsv(tasks.flatMap(taskRecords));
    header = '';
  }
  if (header) yield header;
}
