import type { Box } from './box.types';

/**
 * Rounds to the nearest integer with exact halves going AWAY from zero: 2.5 → 3, -2.5 → -3,
 * 0.5 → 1. Math.round sends halves towards +∞ (-2.5 → -2), which is not the documented rule and
 * would treat a value and its mirror image differently.
 *
 * Non-finite input is returned unchanged (NaN stays NaN) so that validation, not rounding, is what
 * reports it. The result is never -0: JSON prints -0 as 0 anyway, but Object.is and Jest's toEqual
 * tell them apart, and we do not want "-0 !== 0" surprises in comparisons.
 */
export function roundHalfAwayFromZero(n: number): number {
  if (!Number.isFinite(n)) return n;
  const rounded = Math.sign(n) * Math.round(Math.abs(n));
  return rounded === 0 ? 0 : rounded;
}

/**
 * Rounds each of center_x, center_y, width and height independently, half away from zero. This is
 * the integer rule of the design; it does NOT clamp (clampBox clamps first, then calls this).
 *
 * Because center and size are rounded separately, the edges implied by the result are multiples of
 * 0.5 and not necessarily integers: an odd width around an integer center gives half-pixel edges.
 */
export function roundBox(box: Box): Box {
  return {
    label: box.label,
    center_x: roundHalfAwayFromZero(box.center_x),
    center_y: roundHalfAwayFromZero(box.center_y),
    width: roundHalfAwayFromZero(box.width),
    height: roundHalfAwayFromZero(box.height),
  };
}
