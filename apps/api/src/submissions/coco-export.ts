import type { Project } from '../projects/project.entity';
import type { CompletedTaskRow } from './annotations.service';
import { consensusOf } from './task-results';

type Batches = () => AsyncIterable<CompletedTaskRow[]>;

/**
 * A COCO detection file of a project's consensus boxes, streamed: categories, then images (pass one),
 * then annotations (pass two over the same ordered rows, so image ids line up). `bbox` is
 * [x, y, width, height] in pixels of the original image, x and y at the top-left corner.
 */
export async function* cocoExport(project: Project, batches: Batches, createdAt = new Date().toISOString()): AsyncIterable<string> {
  const categories = project.labels.map((label, i) => ({ id: i + 1, name: label.name, supercategory: 'object' }));
  const categoryIds = new Map(categories.map((c) => [c.name, c.id]));
  yield JSON.stringify({
    info: { description: `Crowdbox export of ${project.name}`, version: '1.0', date_created: createdAt },
    licenses: [],
    categories,
  }).slice(0, -1);

  yield ',"images":[';
  let imageId = 0;
  for await (const rows of batches()) {
    yield (imageId === 0 ? '' : ',') +
      rows
        .map((row) => {
          imageId += 1;
          const size = row.subs[0];
          return JSON.stringify({
            id: imageId,
            file_name: row.external_image_url ?? `${row.id}.jpg`,
            coco_url: row.external_image_url,
            width: size?.image_width ?? 0,
            height: size?.image_height ?? 0,
            task_uuid: row.id,
          });
        })
        .join(',');
  }

  yield '],"annotations":[';
  let image = 0;
  let annotationId = 0;
  for await (const rows of batches()) {
    const parts: string[] = [];
    for (const row of rows) {
      image += 1;
      for (const box of consensusOf(row.subs, project.consensusIouThreshold)) {
        annotationId += 1;
        const x = box.center_x - box.width / 2;
        const y = box.center_y - box.height / 2;
        parts.push(
          JSON.stringify({
            id: annotationId,
            image_id: image,
            category_id: categoryIds.get(box.label) ?? 0,
            bbox: [x, y, box.width, box.height],
            area: box.width * box.height,
            iscrowd: 0,
            support: box.support,
            agreement: box.agreement,
          }),
        );
      }
    }
    if (parts.length > 0) yield (annotationId === parts.length ? '' : ',') + parts.join(',');
  }
  yield ']}';
}
