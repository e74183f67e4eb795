import { boxToRect, rectToBox } from './box-rect.util';
import type { Box, ImageSize, Rect } from './box.types';
import { clampBoxAtLeastOnePixel, clampRect } from './clamp.util';

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
 * widen that. Not rounded. A box already at `to`'s size is clamped the same way: clamping only the
 * boxes scaled in made the IoU of two boxes at an edge depend on whose size is the frame, i.e. on which
 * submission came first (a frame's own box kept its half pixel outside, a scaled one lost it).
 */
export function rectInFrame(box: Box, from: ImageSize, to: ImageSize): Rect {
  return clampRect(boxToRect(sameSize(from, to) ? box : scaleBox(box, from, to)), to);
}

/**
 * rectInFrame as an integer box (clampBoxAtLeastOnePixel: clamped, center and size rounded, at least
 * 1 px wide and high, so that a box scaled down into a smaller frame does not come out 0 px), for
 * showing a box drawn at one size over the picture at another; the very box when the sizes are equal.
 */
export function boxInFrame<B extends Box>(box: B, from: ImageSize, to: ImageSize): B | Box {
  if (sameSize(from, to)) return box;
  return clampBoxAtLeastOnePixel(rectToBox(box.label, rectInFrame(box, from, to)), to);
}
