import type { Rect } from './box.types';
import type { Point, Viewport } from './viewport.types';

/*
 * The ONLY place where image and screen coordinates are converted. Everything else (rects, zoom)
 * is built on this pair, so the two directions cannot drift apart.
 */

/** Image pixels → screen pixels: screen = image * scale + offset. */
export function imageToScreen(point: Point, viewport: Viewport): Point {
  return {
    x: point.x * viewport.scale + viewport.offsetX,
    y: point.y * viewport.scale + viewport.offsetY,
  };
}

/** Screen pixels → image pixels, the exact inverse of imageToScreen (viewport.scale must be > 0). */
export function screenToImage(point: Point, viewport: Viewport): Point {
  return {
    x: (point.x - viewport.offsetX) / viewport.scale,
    y: (point.y - viewport.offsetY) / viewport.scale,
  };
}

/**
 * A rect in image pixels → screen pixels, corner by corner. With scale > 0 the mapping preserves
 * order, so a normal rect stays normal.
 */
export function imageRectToScreen(rect: Rect, viewport: Viewport): Rect {
  const topLeft = imageToScreen({ x: rect.x0, y: rect.y0 }, viewport);
  const bottomRight = imageToScreen({ x: rect.x1, y: rect.y1 }, viewport);
  return { x0: topLeft.x, y0: topLeft.y, x1: bottomRight.x, y1: bottomRight.y };
}

/**
 * A rect in screen pixels (e.g. a drag) → image pixels, corner by corner. The result is not
 * clamped or rounded: pass it through clampRect/clampBox before storing.
 */
export function screenRectToImage(rect: Rect, viewport: Viewport): Rect {
  const topLeft = screenToImage({ x: rect.x0, y: rect.y0 }, viewport);
  const bottomRight = screenToImage({ x: rect.x1, y: rect.y1 }, viewport);
  return { x0: topLeft.x, y0: topLeft.y, x1: bottomRight.x, y1: bottomRight.y };
}
