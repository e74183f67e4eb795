/**
 * The coordinate types every other file builds on.
 *
 * All coordinates are pixels of the ORIGINAL image (never of a scaled preview), origin at the
 * top-left corner, x growing to the right and y growing downwards. Keeping one space everywhere
 * means the API, the consensus and the drawing app can exchange boxes without conversions.
 */

/**
 * A labelled box as stored and returned by the API. The field order (label, center_x, center_y,
 * width, height) is part of the design: every function here builds boxes in exactly this order so
 * that serialised JSON matches the contract field for field.
 */
export interface Box {
  label: string;
  center_x: number;
  center_y: number;
  width: number;
  height: number;
}

/**
 * A box as its four edges. Clamping, IoU and medians are all per-edge operations, so they are done
 * on rects and converted back. x0/y0 is the left/top edge, x1/y1 the right/bottom edge; a rect is
 * "normal" when x0 <= x1 and y0 <= y1 (see clampRect for normalising one).
 */
export interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Size of the original image in pixels. */
export interface ImageSize {
  width: number;
  height: number;
}
