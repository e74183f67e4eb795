import { boxToRect, rectToBox } from './box-rect.util';
import type { Box, ImageSize, Rect } from './box.types';
import { clampRect } from './clamp.util';
import { roundBox } from './round.util';

/**
 * A box drawn on an image whose browser reported size `from`, in the pixels of the same picture at
 * size `to`. Workers report the size their browser decoded, and one URL can give two workers two
 * sizes (an image replaced at its address, a CDN that resizes per client), so the consensus and every
 * answer put a task's boxes into one frame first (docs/decisions.md, "One frame per task").
 *
 * Each axis is scaled by its own ratio: a picture re-encoded at another size keeps its proportions,
 * so the two ratios agree unless it was also cropped or padded, which no scaling could undo anyway.
 * Exact, not rounded (callers round once, at the end); the same size returns the box itself.
 */
export function scaleBox(box: Box, from: ImageSize, to: ImageSize): Box {
  if (sameSize(from, to)) return box;
  const sx = to.width / from.width;
  const sy = to.height / from.height;
  return {
    label: box.label,
    center_x: box.center_x * sx,
    center_y: box.center_y * sy,
    width: box.width * sx,
    height: box.height * sy,
  };
}

export function sameSize(a: ImageSize, b: ImageSize): boolean {
  return a.width === b.width && a.height === b.height;
}

/**
 * A box's edges in the pixels of `to`, for a box drawn at `from`: scaled (scaleBox) and clamped to `to`,
 * since a box may lie half a pixel past its own image's edge (EDGE_ROUNDING_SLACK) and scaling up would
 * widen that. Not rounded. The same size gives the box's own edges, unclamped, as it would be used
 * without a frame.
 */
export function rectInFrame(box: Box, from: ImageSize, to: ImageSize): Rect {
  if (sameSize(from, to)) return boxToRect(box);
  return clampRect(boxToRect(scaleBox(box, from, to)), to);
}

/**
 * rectInFrame as an integer box (clampBox's rule: clamped, then center and size rounded), for showing a
 * box drawn at one size over the picture at another; the very box when the sizes are equal.
 */
export function boxInFrame<B extends Box>(box: B, from: ImageSize, to: ImageSize): B | Box {
  if (sameSize(from, to)) return box;
  return roundBox(rectToBox(box.label, rectInFrame(box, from, to)));
}
