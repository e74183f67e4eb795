import { boxInFrame, clampBox, sameSize, type Box, type ImageSize } from '@crowdbox/boxes';

/**
 * Boxes drawn on the image at size `drawnIn`, in the pixels of the image as it loaded now (`image`): a
 * draft resumed after the image at its URL was replaced or is served at another size stays on the same
 * objects. Unchanged when the sizes agree, or when `drawnIn` is unknown (a draft saved before drafts
 * kept it).
 */
export function boxesInImage(boxes: Box[], drawnIn: ImageSize | undefined, image: ImageSize): Box[] {
  if (!drawnIn || sameSize(drawnIn, image)) return boxes;
  return boxes.map((b) => boxInFrame(b, drawnIn, image));
}

/** Integer pixel boxes inside the image, as the API takes them; boxes that round to nothing are dropped. */
export function toSubmittedBoxes(boxes: Box[], image: ImageSize): Box[] {
  return boxes.map((b) => clampBox(b, image)).filter((b) => b.width >= 1 && b.height >= 1);
}
