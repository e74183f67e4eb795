import { screenToImage } from './transform.util';
import type { Point, Viewport, ZoomLimits } from './viewport.types';

/**
 * Zooms by `factor` around a screen point (usually the cursor), keeping the image pixel under that
 * point where it is — the behaviour users expect from wheel zoom.
 *
 * The new scale is clamped to [minScale, maxScale]. When the clamp leaves the scale unchanged the
 * same viewport object is returned, so repeated wheel events at a limit do not accumulate
 * floating-point drift in the offset (and React sees no change). A non-positive or non-finite
 * factor (a zero or NaN wheel delta) is treated as "no zoom" rather than flipping or collapsing
 * the image. Invalid limits are a programming error and throw.
 */
export function zoomAt(viewport: Viewport, screenPoint: Point, factor: number, limits: ZoomLimits): Viewport {
  const { minScale, maxScale } = limits;
  if (!(minScale > 0 && Number.isFinite(maxScale) && minScale <= maxScale)) {
    throw new RangeError(`zoom limits must satisfy 0 < minScale <= maxScale < Infinity (got ${minScale}..${maxScale})`);
  }
  if (!(factor > 0) || !Number.isFinite(factor)) return viewport;

  const scale = Math.min(Math.max(viewport.scale * factor, minScale), maxScale);
  if (scale === viewport.scale) return viewport;

  // Solve screenPoint = anchor * scale + offset for the new offset.
  const anchor = screenToImage(screenPoint, viewport);
  return {
    scale,
    offsetX: screenPoint.x - anchor.x * scale,
    offsetY: screenPoint.y - anchor.y * scale,
  };
}
