import type { Box, ImageSize, Viewport } from '@crowdbox/boxes';
import { createInitialState } from '../editor-store';
import type { EditorState } from '../editor-state.types';

export const IMAGE: ImageSize = { width: 800, height: 600 };

/** Zoom 1, no pan: screen and image pixels coincide. */
export const ZOOM_1: Viewport = { scale: 1, offsetX: 0, offsetY: 0 };
/** Zoom 2.7 panned so that the image's top-left corner is off screen (up and left). */
export const ZOOM_2_7: Viewport = { scale: 2.7, offsetX: -135.5, offsetY: -54.25 };

export const box = (label: string, center_x: number, center_y: number, width: number, height: number): Box => ({
  label,
  center_x,
  center_y,
  width,
  height,
});

/** An editor with an 800x600 image loaded on an 800x600 stage, at the given viewport. */
export function editor(overrides: Partial<EditorState> = {}): EditorState {
  return {
    ...createInitialState({ labels: ['cat', 'dog', 'bird'] }),
    image: IMAGE,
    stage: { width: 800, height: 600 },
    viewport: ZOOM_1,
    autoFit: false,
    ...overrides,
  };
}
