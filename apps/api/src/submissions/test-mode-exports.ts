import type { ProjectAnnotationsEntry } from '@crowdbox/contracts';
import { Project } from '../projects/project.entity';
import { annotationTails, CocoCategories, cocoExport, imageTail } from './coco-export';
import { csvExport } from './csv-export';
import { consensusOf, type SubmissionRow } from './task-results';

/** The image size a test key's fake tasks were drawn on: their frame in COCO and CSV. */
const TEST_FRAME = { width: 1280, height: 960 };

interface TestTaskRow {
  id: string;
  external_image_url: string | null;
  completed_at: string;
  subs: SubmissionRow[];
}

/**
 * A test key's `?format=coco`: the fake entries as a COCO file (not the JSON list), deterministic like every
 * test-mode answer. Each entry becomes one fake submission holding its boxes, so the export shows them as is.
 */
export function testModeCoco(entries: ProjectAnnotationsEntry[]): AsyncIterable<string> {
  const labels = [...new Set(entries.flatMap((e) => e.annotations.map((a) => a.label)))].sort();
  const project = Object.assign(new Project(), {
    name: 'Test project (using a test key)',
    labels: labels.map((name) => ({ name, color: '#1f77b4' })),
    consensusIouThreshold: 0.5,
  });
  const rows: TestTaskRow[] = entries.map((e) => ({
    id: e.task_uuid,
    external_image_url: e.external_image_url,
    completed_at: e.completed_at,
    subs: [
      {
        id: e.task_uuid,
        worker_id: 'test',
        boxes: e.annotations.map(({ label, center_x, center_y, width, height }) => ({ label, center_x, center_y, width, height })),
        image_width: TEST_FRAME.width,
        image_height: TEST_FRAME.height,
        created_at: e.completed_at,
      },
    ],
  }));
  const categories = new CocoCategories(project);
  return cocoExport(
    project,
    {
      async *images() {
        yield rows.map((row) => ({
          id: row.id,
          tail: imageTail({ id: row.id, external_image_url: row.external_image_url, image_width: row.subs[0]?.image_width ?? null, image_height: row.subs[0]?.image_height ?? null }),
        }));
      },
      async *annotations() {
        yield rows.map((row) => ({ id: row.id, boxes: annotationTails(consensusOf(row.subs, project.consensusIouThreshold), categories) }));
      },
    },
    categories,
    entries[0]?.completed_at,
  );
}

/** A test key's `?format=csv`: the fake entries as CSV, deterministic like every test-mode answer. */
export function testModeCsv(entries: ProjectAnnotationsEntry[]): AsyncIterable<string> {
  return csvExport(
    (async function* () {
      yield entries.map((e) => ({ id: e.task_uuid, external_image_url: e.external_image_url, completed_at: e.completed_at, ...TEST_FRAME, boxes: e.annotations }));
    })(),
  );
}
