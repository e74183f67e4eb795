import { boxToRect, clampRect, roundHalfAwayFromZero } from '@crowdbox/boxes';
import type { Box, ImageSize, Rect } from '@crowdbox/boxes';

/** The smallest box the editor makes, in image pixels (smaller only when the image itself is). */
export const MIN_BOX_SIZE = 4;

const clamp = (v: number, lo: number, hi: number): number => Math.min(Math.max(v, lo), hi);

/**
 * One axis of toStoredBox: grow to the minimum around the middle, shift inside [0, limit] without
 * changing the size, then round centre and size half away from zero (the rule of clampBox). When an
 * odd size would leave an edge half a pixel outside the image, the centre moves in by that half.
 */
function settleSpan(lo: number, hi: number, limit: number, minSize: number): { center: number; size: number } {
  const min = Math.min(minSize, limit);
  const size = clamp(Math.max(hi - lo, min), min, limit);
  const start = clamp((lo + hi) / 2 - size / 2, 0, limit - size);
  const intSize = clamp(roundHalfAwayFromZero(size), Math.ceil(min), Math.floor(limit));
  let center = roundHalfAwayFromZero(start + size / 2);
  const lowest = Math.ceil(intSize / 2);
  const highest = Math.floor(limit - intSize / 2);
  if (lowest <= highest) center = clamp(center, lowest, highest);
  return { center, size: intSize };
}

/**
 * The integer box to store for a rect the user made: edges put in order, at least minSize on each
 * side, shifted (not cut) to lie inside the image, then rounded. Callers that want the part outside
 * the image cut off (drawing, handle resizing) pass the rect through clampRect first; moving and
 * keyboard resizing do not, so a box pushed against an edge keeps its size.
 */
export function toStoredBox(label: string, rect: Rect, image: ImageSize, minSize = MIN_BOX_SIZE): Box {
  const x = settleSpan(Math.min(rect.x0, rect.x1), Math.max(rect.x0, rect.x1), image.width, minSize);
  const y = settleSpan(Math.min(rect.y0, rect.y1), Math.max(rect.y0, rect.y1), image.height, minSize);
  return { label, center_x: x.center, center_y: y.center, width: x.size, height: y.size };
}

/** A drawn or handle-resized rect: the part outside the image is cut off, then stored as above. */
export function cutToStoredBox(label: string, rect: Rect, image: ImageSize): Box | null {
  const inside = clampRect(rect, image);
  // A rect wholly outside the image collapses onto an edge: there is nothing to keep.
  if (inside.x1 - inside.x0 <= 0 || inside.y1 - inside.y0 <= 0) return null;
  return toStoredBox(label, inside, image);
}

/** The box moved by (dx, dy) image pixels, same size, kept inside the image. */
export function movedBox(box: Box, dx: number, dy: number, image: ImageSize): Box {
  const r = boxToRect(box);
  return toStoredBox(box.label, { x0: r.x0 + dx, y0: r.y0 + dy, x1: r.x1 + dx, y1: r.y1 + dy }, image);
}

/** The box grown (or shrunk, when negative) by dw x dh image pixels around its centre. */
export function grownBox(box: Box, dw: number, dh: number, image: ImageSize): Box {
  const r = boxToRect(box);
  const rect = { x0: r.x0 - dw / 2, y0: r.y0 - dh / 2, x1: r.x1 + dw / 2, y1: r.y1 + dh / 2 };
  return toStoredBox(box.label, rect, image);
}

export function sameBox(a: Box, b: Box): boolean {
  return (
    a.label === b.label &&
    a.center_x === b.center_x &&
    a.center_y === b.center_y &&
    a.width === b.width &&
    a.height === b.height
  );
}

export function sameBoxes(a: readonly Box[], b: readonly Box[]): boolean {
  return a === b || (a.length === b.length && a.every((box, i) => sameBox(box, b[i])));
}
