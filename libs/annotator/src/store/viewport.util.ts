import { fitToScreen, zoomAt } from '@crowdbox/boxes';
import type { Point, ZoomLimits } from '@crowdbox/boxes';
import type { EditorState } from './editor-state.types';

/** Screen pixels left around the image when it is fitted. */
export const FIT_PADDING = 16;

/** Zoom range: from a quarter of the fitted (or 1:1) size up to 32 times the larger of them. */
export function zoomLimits(state: EditorState): ZoomLimits {
  const fit = state.image && state.stage ? fitToScreen(state.image, state.stage, FIT_PADDING).scale : 1;
  // The current scale stays inside the range, so zooming out never jumps in (or the reverse).
  const { scale } = state.viewport;
  return { minScale: Math.min(Math.min(fit, 1) / 4, scale), maxScale: Math.max(Math.max(fit, 1) * 32, scale) };
}

export function fitted(state: EditorState): EditorState {
  if (!state.image || !state.stage) return { ...state, autoFit: true };
  return { ...state, viewport: fitToScreen(state.image, state.stage, FIT_PADDING), autoFit: true };
}

export function zoomedAt(state: EditorState, screenPoint: Point, factor: number): EditorState {
  const viewport = zoomAt(state.viewport, screenPoint, factor, zoomLimits(state));
  return viewport === state.viewport ? state : { ...state, viewport, autoFit: false };
}

export function stageCentre(state: EditorState): Point {
  return state.stage ? { x: state.stage.width / 2, y: state.stage.height / 2 } : { x: 0, y: 0 };
}

export function panned(state: EditorState, dx: number, dy: number): EditorState {
  if (dx === 0 && dy === 0) return state;
  const { scale, offsetX, offsetY } = state.viewport;
  return { ...state, viewport: { scale, offsetX: offsetX + dx, offsetY: offsetY + dy }, autoFit: false };
}
