import type { Box, Rect } from './box.types';

/**
 * Center/size → edges. No rounding and no clamping: this is an exact change of representation so
 * that callers decide when (and whether) the integer rule applies.
 */
export function boxToRect(box: Box): Rect {
  const halfWidth = box.width / 2;
  const halfHeight = box.height / 2;
  return {
    x0: box.center_x - halfWidth,
    y0: box.center_y - halfHeight,
    x1: box.center_x + halfWidth,
    y1: box.center_y + halfHeight,
  };
}

/**
 * Edges → center/size, fields in the contract's order. Exact like boxToRect: an inverted rect gives
 * a negative width/height here on purpose, so normalise with clampRect first when the edges come
 * from a user's drag (which may run right-to-left or bottom-to-top).
 */
export function rectToBox(label: string, rect: Rect): Box {
  return {
    label,
    center_x: (rect.x0 + rect.x1) / 2,
    center_y: (rect.y0 + rect.y1) / 2,
    width: rect.x1 - rect.x0,
    height: rect.y1 - rect.y0,
  };
}
