import type { Box, ImageSize, StageSize, Viewport } from '@crowdbox/boxes';

/** What undo and redo restore: the boxes and which of them was selected. */
export interface EditorSnapshot {
  boxes: Box[];
  selected: number | null;
}

/**
 * Everything the editor knows, in image pixels. Screen space appears only as the stage size and the
 * viewport (zoom and pan), which the canvas feeds to the transforms of @crowdbox/boxes.
 */
export interface EditorState {
  /** Natural size of the image; null until it has loaded. */
  image: ImageSize | null;
  /** Size of the stage in screen pixels; null until it has been laid out. */
  stage: StageSize | null;
  boxes: Box[];
  /** Index into boxes, or null. */
  selected: number | null;
  /** The label a newly drawn box gets. */
  currentLabel: string;
  /** Label names in key order: key 1 picks labels[0]. */
  labels: string[];
  viewport: Viewport;
  /** True while the viewport is the fit-to-screen one, so a resized stage is fitted again. */
  autoFit: boolean;
  /** Edits are ignored; selection, zoom and pan still work. */
  readOnly: boolean;
  /** The most boxes an edit may leave (drawing, undo, redo); null: no limit. Boxes from outside may exceed it. */
  maxBoxes: number | null;
  /** How many edits the limit has refused, so the editor can say so again at each one. */
  refusedAtLimit: number;
  past: EditorSnapshot[];
  future: EditorSnapshot[];
}
