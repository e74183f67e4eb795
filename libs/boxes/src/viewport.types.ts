/** Types for showing an image on the drawing app's stage (canvas). */

/** A 2D point; which space it is in (image or screen pixels) is given by the function using it. */
export interface Point {
  x: number;
  y: number;
}

/**
 * Zoom and pan of the stage, kept as separate numbers: screen = image * scale + offset.
 *
 * scale is screen pixels per image pixel and must be > 0 (zoomAt and fitToScreen never produce
 * anything else). offsetX/offsetY are in SCREEN pixels: where the image's top-left corner lands.
 * Keeping the pan in screen pixels means dragging the stage by d screen pixels is offset += d,
 * whatever the zoom.
 */
export interface Viewport {
  scale: number;
  offsetX: number;
  offsetY: number;
}

/** Bounds for zoomAt, in the same unit as Viewport.scale. */
export interface ZoomLimits {
  minScale: number;
  maxScale: number;
}

/** Size of the stage (the visible drawing area) in screen pixels. */
export interface StageSize {
  width: number;
  height: number;
}
