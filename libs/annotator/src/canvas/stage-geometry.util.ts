import { boxToRect, imageRectToScreen, imageToScreen, screenRectToImage, screenToImage } from '@crowdbox/boxes';
import type { Box, ImageSize, Point, Rect, Viewport } from '@crowdbox/boxes';

/*
 * The canvas side of the coordinate rule: every screen value the stage uses is made here, from image
 * pixels, through the one pair of transforms in @crowdbox/boxes. Konva nodes are never scaled.
 */

/** A Konva-style rect (top-left and size) in SCREEN pixels. */
export interface NodeRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export function toNodeRect(rect: Rect): NodeRect {
  return { x: rect.x0, y: rect.y0, width: rect.x1 - rect.x0, height: rect.y1 - rect.y0 };
}

export function fromNodeRect(node: NodeRect): Rect {
  return { x0: node.x, y0: node.y, x1: node.x + node.width, y1: node.y + node.height };
}

/** Where a box is drawn on the stage. */
export function boxToScreen(box: Box, viewport: Viewport): NodeRect {
  return toNodeRect(imageRectToScreen(boxToRect(box), viewport));
}

/** Where the image is drawn on the stage. */
export function imageToScreenRect(image: ImageSize, viewport: Viewport): NodeRect {
  return toNodeRect(imageRectToScreen({ x0: 0, y0: 0, x1: image.width, y1: image.height }, viewport));
}

/** A rect on the stage (a drawn drag, a resized node) in image pixels; not clamped or rounded. */
export function screenNodeToImage(node: NodeRect, viewport: Viewport): Rect {
  return screenRectToImage(fromNodeRect(node), viewport);
}

/** How far a box node dragged to screen point `topLeft` moved the box, in image pixels. */
export function dragDelta(box: Box, topLeft: Point, viewport: Viewport): Point {
  const from = boxToRect(box);
  const to = screenToImage(topLeft, viewport);
  return { x: to.x - from.x0, y: to.y - from.y0 };
}

/** Keeps a dragged box of the given screen size inside the image: its top-left, in screen pixels. */
export function clampDragPosition(topLeft: Point, size: { width: number; height: number }, image: ImageSize, viewport: Viewport): Point {
  const p = screenToImage(topLeft, viewport);
  const w = size.width / viewport.scale;
  const h = size.height / viewport.scale;
  const x = Math.min(Math.max(p.x, 0), Math.max(image.width - w, 0));
  const y = Math.min(Math.max(p.y, 0), Math.max(image.height - h, 0));
  return imageToScreen({ x, y }, viewport);
}

/** A pointer position from a DOM event, in stage (screen) pixels. */
export function clientToStage(client: { clientX: number; clientY: number }, stageBox: { left: number; top: number }): Point {
  return { x: client.clientX - stageBox.left, y: client.clientY - stageBox.top };
}

/** A press that moved less than this many screen pixels is a click, not a drag. */
export const CLICK_SLOP = 3;

export function isClick(from: Point, to: Point): boolean {
  return Math.abs(to.x - from.x) < CLICK_SLOP && Math.abs(to.y - from.y) < CLICK_SLOP;
}

/**
 * Zoom factor for one wheel event: smooth for trackpads (small deltas), about 1.2x per mouse notch.
 * deltaMode 1 is lines, 2 pages; both are converted to pixels first.
 */
export function wheelZoomFactor(deltaY: number, deltaMode = 0): number {
  const pixels = deltaY * (deltaMode === 1 ? 16 : deltaMode === 2 ? 400 : 1);
  const clamped = Math.min(Math.max(pixels, -200), 200);
  return Math.exp(-clamped * 0.0018);
}

/**
 * Transformer bound: a resized box stays inside the image (edges clamped) and never smaller than
 * minSize screen pixels (the old box is kept instead). Rotation is off, so boxes stay axis-aligned.
 */
export function boundResize<T extends NodeRect>(oldBox: T, newBox: T, imageRect: NodeRect, minSize: number): T {
  const x0 = Math.max(newBox.x, imageRect.x);
  const y0 = Math.max(newBox.y, imageRect.y);
  const x1 = Math.min(newBox.x + newBox.width, imageRect.x + imageRect.width);
  const y1 = Math.min(newBox.y + newBox.height, imageRect.y + imageRect.height);
  if (x1 - x0 < minSize || y1 - y0 < minSize) return oldBox;
  return { ...newBox, x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** Where the label tag of a box goes: just above it, or inside its top edge when there is no room. */
export function tagPosition(rect: NodeRect, tagHeight: number): Point {
  return { x: rect.x, y: rect.y >= tagHeight ? rect.y - tagHeight : rect.y };
}

/** What two fingers did between two moments: zoom by `factor` at `at`, then pan by `dx`, `dy` (stage pixels). */
export interface PinchStep {
  at: Point;
  factor: number;
  dx: number;
  dy: number;
}

/**
 * Two fingers moved from `from` to `to`: the zoom is the ratio of their distances, about their old
 * midpoint, and the pan carries that midpoint to the new one, so the image point between the fingers
 * stays between them, as on any map. Fingers that touch (distance 0) zoom nothing.
 */
export function pinchStep(from: readonly [Point, Point], to: readonly [Point, Point]): PinchStep {
  const mid = (pair: readonly [Point, Point]): Point => ({ x: (pair[0].x + pair[1].x) / 2, y: (pair[0].y + pair[1].y) / 2 });
  const spread = (pair: readonly [Point, Point]): number => Math.hypot(pair[1].x - pair[0].x, pair[1].y - pair[0].y);
  const a = mid(from);
  const b = mid(to);
  const before = spread(from);
  const after = spread(to);
  return { at: a, factor: before > 0 && after > 0 ? after / before : 1, dx: b.x - a.x, dy: b.y - a.y };
}
