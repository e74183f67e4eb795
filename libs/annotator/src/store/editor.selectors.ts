import type { Box } from '@crowdbox/boxes';
import type { EditorState } from './editor-state.types';

export const selectedBox = (state: EditorState): Box | null =>
  state.selected === null ? null : (state.boxes[state.selected] ?? null);

export const canUndo = (state: EditorState): boolean => !state.readOnly && state.past.length > 0;
export const canRedo = (state: EditorState): boolean => !state.readOnly && state.future.length > 0;

/** The label the picker shows as active: the selected box's, else the one for the next box. */
export const activeLabel = (state: EditorState): string => selectedBox(state)?.label ?? state.currentLabel;

/** Whether drawing would add a box: the editor is editable and below its limit, if it has one. */
export const canAddBox = (state: EditorState): boolean => !state.readOnly && (state.maxBoxes === null || state.boxes.length < state.maxBoxes);
