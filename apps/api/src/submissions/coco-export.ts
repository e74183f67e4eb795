import { boxToRect } from '@crowdbox/boxes';
import type { ConsensusAnnotation } from '@crowdbox/contracts';
import type { Project } from '../projects/project.entity';

/** Pass one reads, per complete task: its image, and the image size of its first submission (null: none). */
export interface CocoImageRow {
  id: string;
  external_image_url: string | null;
  image_width: number | null;
  image_height: number | null;
}

/**
 * What the export reads, twice over the complete tasks in completion order, as JSON text that only lacks
 * the ids the export numbers: per task its image object after `{"id":<image id>` (`tail`), then per task
 * the list of its boxes' objects after `{"id":<annotation id>,"image_id":<image id>` (`boxes`). The
 * database builds the image text (annotations.service.ts, COCO_IMAGES_SQL); imageTail builds the same
 * for test keys.
 */
export interface CocoSource {
  images(): AsyncIterable<Array<{ id: string; tail: string }>>;
  annotations(): AsyncIterable<Array<{ id: string; boxes: string[] }>>;
}

/**
 * The categories of an export: 1, 2, … for the project's labels in their order, then the labels a PATCH
 * removed (boxes drawn before still carry them), then any other label a box carries, numbered as it is
 * met. The project is the one the export began with, read through a cache (up to CACHE_TTL_MS old on a
 * node that missed a PATCH's invalidation), and boxes are read as they are: a label renamed while an
 * export ran, or just before on such a node, is met in pass two only. So the list is written after the
 * annotations, and every box's category_id is in the file.
 */
export class CocoCategories {
  private readonly ids = new Map<string, number>();

  constructor(project: Pick<Project, 'labels' | 'retiredLabels'>) {
    for (const name of [...project.labels.map((label) => label.name), ...(project.retiredLabels ?? [])]) this.idOf(name);
  }

  idOf(label: string): number {
    let id = this.ids.get(label);
    if (id === undefined) {
      id = this.ids.size + 1;
      this.ids.set(label, id);
    }
    return id;
  }

  list(): Array<{ id: number; name: string; supercategory: string }> {
    return [...this.ids].map(([name, id]) => ({ id, name, supercategory: 'object' }));
  }
}

/** An image object's JSON text after its id: `,"file_name":…,"task_uuid":"…"}`. */
export function imageTail(row: CocoImageRow): string {
  return (
    ',' +
    JSON.stringify({
      file_name: row.external_image_url ?? `${row.id}.jpg`,
      coco_url: row.external_image_url,
      width: row.image_width ?? 0,
      height: row.image_height ?? 0,
      task_uuid: row.id,
    }).slice(1)
  );
}

/**
 * Each box's annotation object after its ids: `,"category_id":…,"agreement":…}`. `bbox` is
 * [x, y, width, height] in pixels of the task's frame, x and y at the top-left corner (boxToRect's, as
 * the CSV export's corners).
 */
export function annotationTails(boxes: ConsensusAnnotation[], categories: CocoCategories): string[] {
  return boxes.map((box) => {
    const { x0, y0 } = boxToRect(box);
    return (
      ',' +
      JSON.stringify({
        category_id: categories.idOf(box.label),
        bbox: [x0, y0, box.width, box.height],
        area: box.width * box.height,
        iscrowd: 0,
        support: box.support,
        agreement: box.agreement,
      }).slice(1)
    );
  });
}

/**
 * A COCO detection file of a project's consensus boxes, streamed: images (pass one), annotations (pass
 * two), then categories (CocoCategories says why last; COCO readers load the whole object). Ids are numbered here, in order, 1 up; everything else arrives as text
 * (CocoSource), so a batch is only concatenated. Pass two finds each task's image id by the task's id,
 * not by its position: a task completed while pass one ran (possibly earlier in the order, since a
 * completion's time is its statement's start) is in pass two only, and is left for the next export
 * instead of shifting every later box onto another image. The ids map costs ~8 MB per 100,000 images;
 * reading both passes in one snapshot instead held a connection and a transaction open for as long as
 * the client took to download.
 */
export async function* cocoExport(
  project: Project,
  source: CocoSource,
  categories: CocoCategories,
  createdAt = new Date().toISOString(),
): AsyncIterable<string> {
  // The opening goes out with the first page of images: an error before a stream's first chunk is
  // still answered as an error (see jsonExport in annotations.service.ts).
  let opening =
    JSON.stringify({
      info: { description: `Crowdbox export of ${project.name}`, version: '1.0', date_created: createdAt },
      licenses: [],
    }).slice(0, -1) + ',"images":[';
  const imageIds = new Map<string, number>();
  for await (const images of source.images()) {
    if (images.length === 0) continue;
    const parts: string[] = [];
    for (const { id, tail } of images) {
      const imageId = imageIds.size + 1;
      imageIds.set(id, imageId);
      parts.push(`{"id":${imageId}${tail}`);
    }
    yield opening + (imageIds.size === parts.length ? '' : ',') + parts.join(',');
    opening = '';
  }

  yield opening + '],"annotations":[';
  let annotationId = 0;
  for await (const tasks of source.annotations()) {
    const parts: string[] = [];
    for (const { id, boxes } of tasks) {
      const image = imageIds.get(id);
      if (image === undefined) continue;
      for (const tail of boxes) {
        annotationId += 1;
        parts.push(`{"id":${annotationId},"image_id":${image}${tail}`);
      }
    }
    if (parts.length > 0) yield (annotationId === parts.length ? '' : ',') + parts.join(',');
  }
  yield `],"categories":${JSON.stringify(categories.list())}}`;
}
