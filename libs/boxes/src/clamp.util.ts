import { boxToRect, rectToBox } from './box-rect.util';
import type { Box, ImageSize, Rect } from './box.types';
import { roundBox } from './round.util';

/**
 * Puts a rect's edges in order and inside the image: x in [0, image.width], y in [0, image.height].
 *
 * Inverted edges are swapped first because a drag may go right-to-left or bottom-to-top and the
 * user still means the same box. A rect lying entirely outside the image collapses onto the nearest
 * image edge (zero width or height) rather than being rejected here; boxInsideImage is the place
 * that turns a degenerate box into an error message. NaN edges stay NaN for the same reason.
 */
export function clampRect(rect: Rect, image: ImageSize): Rect {
  const clampX = (v: number): number => Math.min(Math.max(v, 0), image.width);
  const clampY = (v: number): number => Math.min(Math.max(v, 0), image.height);
  return {
    x0: clampX(Math.min(rect.x0, rect.x1)),
    y0: clampY(Math.min(rect.y0, rect.y1)),
    x1: clampX(Math.max(rect.x0, rect.x1)),
    y1: clampY(Math.max(rect.y0, rect.y1)),
  };
}

/**
 * The integer box to store: clamp the EDGES inside the image, derive center and size from the
 * clamped edges, then round each of center_x, center_y, width, height half away from zero.
 *
 * Clamping comes first so that a box hanging off the image loses exactly the part outside it
 * (clamping after rounding would shift the visible part). Worked example with x0 = 0.5, x1 = 3 in
 * an image at least 4 px wide:
 *   center_x = (0.5 + 3) / 2 = 1.75 → 2
 *   width    =  3 - 0.5      = 2.5  → 3   (an exact half goes away from zero, i.e. up)
 * so the stored box is {center_x: 2, width: 3}, whose edges read back as 0.5 and 3.5. Center and
 * size are rounded independently, so the read-back edges are multiples of 0.5 and may lie up to
 * half a pixel outside the image: x0 = 0, x1 = 3 in a 3 px image gives center 1.5 → 2, width 3,
 * edges 0.5..3.5. center_x/center_y always stay within [0, image size] and width/height never
 * exceed the image, and boxInsideImage accepts exactly this half-pixel overhang.
 */
export function clampBox(box: Box, image: ImageSize): Box {
  return roundBox(rectToBox(box.label, clampRect(boxToRect(box), image)));
}

/**
 * clampBox for a box that the code made rather than a worker drew: one scaled into a task's frame, or
 * a consensus's merged box. Such a box keeps at least 1 px of width and height: scaled down into a
 * smaller frame (a 1 px box from a 4000 px copy into a 64 px frame is 0.016 px) or cut by the clamp,
 * clampBox would round it to 0, a box that boxInsideImage refuses and that went out as a COCO area of 0
 * and a CSV record with x_min = x_max. A widened side has its integer center moved inside the image
 * where it can be (1..size - 1), so it adds no overhang; a side of 1 px or more is clampBox's.
 * NaN stays NaN, as in clampBox.
 */
export function clampBoxAtLeastOnePixel(box: Box, image: ImageSize): Box {
  const clamped = clampBox(box, image);
  const [centerX, width] = atLeastOnePixel(clamped.center_x, clamped.width, image.width);
  const [centerY, height] = atLeastOnePixel(clamped.center_y, clamped.height, image.height);
  return { label: clamped.label, center_x: centerX, center_y: centerY, width, height };
}

/** One axis of clampBoxAtLeastOnePixel: `center` and `size` already clamped to [0, extent] and rounded. */
function atLeastOnePixel(center: number, size: number, extent: number): [number, number] {
  if (!(size < 1)) return [center, size];
  // An image 1 px wide has no integer center with both edges inside: center 1 overhangs by half a pixel,
  // the EDGE_ROUNDING_SLACK every stored box may have.
  return [Math.min(Math.max(center, 1), Math.max(extent - 1, 1)), 1];
}
