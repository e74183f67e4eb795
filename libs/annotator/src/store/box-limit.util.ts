import type { EditorState } from './editor-state.types';

/** A `maxBoxes` as the store holds it: a whole number of boxes, or null for no limit. */
export function boxLimit(max: number | null | undefined): number | null {
  return max === null || max === undefined || Number.isNaN(max) ? null : Math.max(0, Math.floor(max));
}

/**
 * Whether an edit that leaves `count` boxes would add one beyond the limit. Boxes the editor already
 * holds beyond it (a draft from before the limit) stay: only an edit that adds to them is refused.
 */
export function addsBeyondLimit(state: EditorState, count: number): boolean {
  return state.maxBoxes !== null && count > state.maxBoxes && count > state.boxes.length;
}

/** The edit is refused at the limit: nothing changes but the count of refusals, which the editor announces. */
export function refusedAtLimit(state: EditorState): EditorState {
  return { ...state, refusedAtLimit: state.refusedAtLimit + 1 };
}
