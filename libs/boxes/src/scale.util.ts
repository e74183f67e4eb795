import type { Box, ImageSize } from './box.types';

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
