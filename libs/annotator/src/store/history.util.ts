import type { Box } from '@crowdbox/boxes';
import { sameBoxes } from './box-edit.util';
import type { EditorSnapshot, EditorState } from './editor-state.types';

/** Undo steps kept; older ones are dropped. */
export const HISTORY_LIMIT = 500;

const snapshot = (state: EditorState): EditorSnapshot => ({ boxes: state.boxes, selected: state.selected });

/**
 * Applies an edit as one undo step. An edit that leaves the boxes as they were (a move clamped back
 * to where it started, a relabel to the same label) returns the state unchanged and records nothing.
 */
export function commitEdit(state: EditorState, boxes: Box[], selected: number | null): EditorState {
  if (sameBoxes(state.boxes, boxes)) {
    return selected === state.selected ? state : { ...state, selected };
  }
  const past = [...state.past, snapshot(state)].slice(-HISTORY_LIMIT);
  return { ...state, boxes, selected, past, future: [] };
}

export function undo(state: EditorState): EditorState {
  const previous = state.past[state.past.length - 1];
  if (!previous || state.readOnly) return state;
  return {
    ...state,
    ...previous,
    past: state.past.slice(0, -1),
    future: [snapshot(state), ...state.future],
  };
}

export function redo(state: EditorState): EditorState {
  const next = state.future[0];
  if (!next || state.readOnly) return state;
  return {
    ...state,
    ...next,
    past: [...state.past, snapshot(state)].slice(-HISTORY_LIMIT),
    future: state.future.slice(1),
  };
}
