import type { ProjectAnnotationsEntry } from '@crowdbox/contracts';
import { Project } from '../projects/project.entity';
import { annotationTails, CocoCategories, cocoExport, imageTail } from './coco-export';
import { csvExport } from './csv-export';

/** The image size a test key's fake tasks were drawn on: their frame in COCO and CSV. */
const TEST_FRAME = { width: 1280, height: 960 };

/**
 * A test key's `?format=coco`: the fake entries as a COCO file (not the JSON list), deterministic like every
 * test-mode answer. Their boxes go in as the JSON and CSV answers give them, support and agreement
 * included: the three formats of one request hold the same numbers, as a live key's do. (Each entry was
 * run through the consensus as one worker's submission, which made every box support 1, agreement 1.)
 */
export function testModeCoco(entries: ProjectAnnotationsEntry[]): AsyncIterable<string> {
  const labels = [...new Set(entries.flatMap((e) => e.annotations.map((a) => a.label)))].sort();
  const project = Object.assign(new Project(), {
    name: 'Test project (using a test key)',
    labels: labels.map((name) => ({ name, color: '#1f77b4' })),
  });
  const categories = new CocoCategories(project);
  return cocoExport(
    project,
    {
      async *images() {
        yield entries.map((e) => ({
          id: e.task_uuid,
          tail: imageTail({ id: e.task_uuid, external_image_url: e.external_image_url, image_width: TEST_FRAME.width, image_height: TEST_FRAME.height }),
        }));
      },
      async *annotations() {
        yield entries.map((e) => ({ id: e.task_uuid, boxes: annotationTails(e.annotations, categories) }));
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
