import { boxToRect } from './box-rect.util';
import type { Box, Rect } from './box.types';

// Math's functions are read once here: inside a vm context (Jest's sandbox) each global lookup in a
// hot loop costs about 100 ns, which made a consensus of thousands of boxes 50 times slower under test than in Node.
const { min, max } = Math;
/** The largest finite double, read once for the same reason (`Infinity` is a global lookup too). */
const { MAX_VALUE } = Number;

/**
 * Intersection over union of two rects, in [0, 1].
 *
 * A rect with zero or negative width/height (including an inverted one — normalise with clampRect
 * first if that is meant to be a real box) has no area and therefore IoU 0 with everything, as do
 * rects that only touch along an edge. Checks are written as !(x > 0) so NaN also yields 0 instead
 * of leaking NaN into consensus comparisons.
 */
export function rectIou(a: Rect, b: Rect): number {
  const aw = a.x1 - a.x0;
  const ah = a.y1 - a.y0;
  const bw = b.x1 - b.x0;
  const bh = b.y1 - b.y0;
  if (!(aw > 0 && ah > 0 && bw > 0 && bh > 0)) return 0;

  const iw = min(a.x1, b.x1) - max(a.x0, b.x0);
  const ih = min(a.y1, b.y1) - max(a.y0, b.y0);
  if (!(iw > 0 && ih > 0)) return 0;

  const intersection = iw * ih;
  const union = aw * ah + bw * bh - intersection;
  if (!(union > 0 && union <= MAX_VALUE)) return scaledIou(aw, ah, bw, bh, iw, ih);
  return intersection / union;
}

/**
 * rectIou's last step for rects whose areas do not fit a double: edges 1e200 apart make an area
 * Infinity (and the union Infinity - Infinity = NaN), sizes of 1e-200 make it 0 (and the IoU 0 / 0).
 * Those NaNs passed every `score < threshold` test, so such a box joined the first cluster it met
 * whatever the overlap, and an agreement of NaN went out as JSON null. The same ratio with each axis
 * divided by the larger of the two sizes on it (IoU does not change with scale) is finite for any finite
 * sizes; sizes that are themselves Infinity (edges ±1e308) still give NaN there, taken as no overlap (0),
 * as rectIou takes any rect it cannot measure. `aw` to `ih` are rectIou's positive widths, heights and
 * intersection sides.
 */
export function scaledIou(aw: number, ah: number, bw: number, bh: number, iw: number, ih: number): number {
  const sx = max(aw, bw);
  const sy = max(ah, bh);
  const intersection = (iw / sx) * (ih / sy);
  const ratio = intersection / ((aw / sx) * (ah / sy) + (bw / sx) * (bh / sy) - intersection);
  return ratio >= 0 ? min(ratio, 1) : 0;
}

/**
 * IoU of two boxes (0 when they do not overlap or either has zero area). Labels are ignored on
 * purpose: whether differently labelled boxes may be compared is the caller's rule (consensus never
 * compares them).
 */
export function iou(a: Box, b: Box): number {
  return rectIou(boxToRect(a), boxToRect(b));
}
