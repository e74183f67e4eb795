import type { Box, ImageSize, Point, Rect, StageSize } from '@crowdbox/boxes';

/** Every change the editor knows. Coordinates are IMAGE pixels except where a field says screen. */
export type EditorAction =
  | { type: 'imageLoaded'; size: ImageSize }
  | { type: 'stageResized'; size: StageSize }
  | { type: 'labelsChanged'; labels: string[] }
  | { type: 'readOnlyChanged'; readOnly: boolean }
  /** null: no limit. */
  | { type: 'maxBoxesChanged'; maxBoxes: number | null }
  /** The controlled value changed from outside; not an edit, so not an undo step. */
  | { type: 'boxesReplaced'; boxes: Box[] }
  | { type: 'drawBox'; rect: Rect }
  /** A box of a default size in the middle of the view, with the current label (key N: drawing without a pointer). */
  | { type: 'placeBox' }
  | { type: 'moveBox'; index: number; dx: number; dy: number }
  | { type: 'resizeBox'; index: number; rect: Rect }
  | { type: 'deleteBox'; index: number }
  | { type: 'relabelBox'; index: number; label: string }
  | { type: 'select'; index: number | null }
  | { type: 'cycleSelection'; step: 1 | -1 }
  | { type: 'nudgeSelected'; dx: number; dy: number }
  | { type: 'resizeSelected'; dw: number; dh: number }
  | { type: 'deleteSelected' }
  /** Key 1–9 or the picker: relabel the selection, or choose the label of the next box. */
  | { type: 'pickLabel'; label: string }
  | { type: 'pickLabelNumber'; number: number }
  | { type: 'undo' }
  | { type: 'redo' }
  /** screenPoint is in SCREEN pixels (the cursor). */
  | { type: 'zoomAt'; screenPoint: Point; factor: number }
  /** Zoom around the centre of the stage. */
  | { type: 'zoomBy'; factor: number }
  /** dx, dy in SCREEN pixels. */
  | { type: 'pan'; dx: number; dy: number }
  | { type: 'fit' };

/** Action creators, so callers never spell action objects by hand. */
export const actions = {
  imageLoaded: (size: ImageSize): EditorAction => ({ type: 'imageLoaded', size }),
  stageResized: (size: StageSize): EditorAction => ({ type: 'stageResized', size }),
  labelsChanged: (labels: string[]): EditorAction => ({ type: 'labelsChanged', labels }),
  readOnlyChanged: (readOnly: boolean): EditorAction => ({ type: 'readOnlyChanged', readOnly }),
  maxBoxesChanged: (maxBoxes: number | null): EditorAction => ({ type: 'maxBoxesChanged', maxBoxes }),
  boxesReplaced: (boxes: Box[]): EditorAction => ({ type: 'boxesReplaced', boxes }),
  drawBox: (rect: Rect): EditorAction => ({ type: 'drawBox', rect }),
  placeBox: (): EditorAction => ({ type: 'placeBox' }),
  moveBox: (index: number, dx: number, dy: number): EditorAction => ({ type: 'moveBox', index, dx, dy }),
  resizeBox: (index: number, rect: Rect): EditorAction => ({ type: 'resizeBox', index, rect }),
  deleteBox: (index: number): EditorAction => ({ type: 'deleteBox', index }),
  relabelBox: (index: number, label: string): EditorAction => ({ type: 'relabelBox', index, label }),
  select: (index: number | null): EditorAction => ({ type: 'select', index }),
  cycleSelection: (step: 1 | -1): EditorAction => ({ type: 'cycleSelection', step }),
  nudgeSelected: (dx: number, dy: number): EditorAction => ({ type: 'nudgeSelected', dx, dy }),
  resizeSelected: (dw: number, dh: number): EditorAction => ({ type: 'resizeSelected', dw, dh }),
  deleteSelected: (): EditorAction => ({ type: 'deleteSelected' }),
  pickLabel: (label: string): EditorAction => ({ type: 'pickLabel', label }),
  pickLabelNumber: (number: number): EditorAction => ({ type: 'pickLabelNumber', number }),
  undo: (): EditorAction => ({ type: 'undo' }),
  redo: (): EditorAction => ({ type: 'redo' }),
  zoomAt: (screenPoint: Point, factor: number): EditorAction => ({ type: 'zoomAt', screenPoint, factor }),
  zoomBy: (factor: number): EditorAction => ({ type: 'zoomBy', factor }),
  pan: (dx: number, dy: number): EditorAction => ({ type: 'pan', dx, dy }),
  fit: (): EditorAction => ({ type: 'fit' }),
};
