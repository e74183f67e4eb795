import { clampRect, screenRectToImage } from '@crowdbox/boxes';
import type { Box, Rect } from '@crowdbox/boxes';
import { cutToStoredBox, grownBox, MIN_BOX_SIZE, movedBox, toStoredBox } from './box-edit.util';
import { addsBeyondLimit, boxLimit, refusedAtLimit } from './box-limit.util';
import type { EditorAction } from './editor.actions';
import type { EditorState } from './editor-state.types';
import { commitEdit, redo, undo } from './history.util';
import { fitted, panned, stageCentre, zoomedAt } from './viewport.util';

const validIndex = (state: EditorState, index: number | null): index is number =>
  index !== null && Number.isInteger(index) && index >= 0 && index < state.boxes.length;

function replaceAt(boxes: Box[], index: number, box: Box): Box[] {
  const next = boxes.slice();
  next[index] = box;
  return next;
}

function drawBox(state: EditorState, rect: Rect): EditorState {
  if (state.readOnly || !state.image) return state;
  if (addsBeyondLimit(state, state.boxes.length + 1)) return refusedAtLimit(state);
  const box = cutToStoredBox(state.currentLabel, rect, state.image);
  if (!box) return state;
  return commitEdit(state, [...state.boxes, box], state.boxes.length);
}

/**
 * Key N: a square a quarter of the smaller side of the part of the image in view, centred in that part
 * (the whole image when none of it is in view), with the current label, selected so the arrows and
 * Alt+arrows shape it. The one way to make a box without a pointer.
 */
function placeBox(state: EditorState): EditorState {
  const { image, stage } = state;
  if (state.readOnly || !image) return state;
  if (addsBeyondLimit(state, state.boxes.length + 1)) return refusedAtLimit(state);
  const whole = { x0: 0, y0: 0, x1: image.width, y1: image.height };
  let seen = stage ? clampRect(screenRectToImage({ x0: 0, y0: 0, x1: stage.width, y1: stage.height }, state.viewport), image) : whole;
  if (seen.x1 - seen.x0 <= 0 || seen.y1 - seen.y0 <= 0) seen = whole;
  const half = Math.max(MIN_BOX_SIZE, Math.min(seen.x1 - seen.x0, seen.y1 - seen.y0) / 4) / 2;
  const cx = (seen.x0 + seen.x1) / 2;
  const cy = (seen.y0 + seen.y1) / 2;
  const box = toStoredBox(state.currentLabel, { x0: cx - half, y0: cy - half, x1: cx + half, y1: cy + half }, image);
  return commitEdit(state, [...state.boxes, box], state.boxes.length);
}

function moveBox(state: EditorState, index: number | null, dx: number, dy: number): EditorState {
  if (state.readOnly || !state.image || !validIndex(state, index)) return state;
  return commitEdit(state, replaceAt(state.boxes, index, movedBox(state.boxes[index], dx, dy, state.image)), index);
}

function resizeBox(state: EditorState, index: number, rect: Rect): EditorState {
  if (state.readOnly || !state.image || !validIndex(state, index)) return state;
  const box = cutToStoredBox(state.boxes[index].label, rect, state.image);
  if (!box) return state;
  return commitEdit(state, replaceAt(state.boxes, index, box), index);
}

function growSelected(state: EditorState, dw: number, dh: number): EditorState {
  const index = state.selected;
  if (state.readOnly || !state.image || !validIndex(state, index)) return state;
  return commitEdit(state, replaceAt(state.boxes, index, grownBox(state.boxes[index], dw, dh, state.image)), index);
}

function deleteBox(state: EditorState, index: number | null): EditorState {
  if (state.readOnly || !validIndex(state, index)) return state;
  const boxes = state.boxes.filter((_, i) => i !== index);
  // Keep the selection on the same box; deleting the selected one selects nothing.
  const selected =
    state.selected === null || state.selected === index ? null : state.selected - (state.selected > index ? 1 : 0);
  return commitEdit(state, boxes, selected);
}

function relabelBox(state: EditorState, index: number | null, label: string): EditorState {
  if (state.readOnly || !validIndex(state, index)) return state;
  return commitEdit(state, replaceAt(state.boxes, index, { ...state.boxes[index], label }), index);
}

function pickLabel(state: EditorState, label: string): EditorState {
  if (validIndex(state, state.selected)) return relabelBox(state, state.selected, label);
  return label === state.currentLabel ? state : { ...state, currentLabel: label };
}

function cycleSelection(state: EditorState, step: 1 | -1): EditorState {
  const n = state.boxes.length;
  if (n === 0) return state.selected === null ? state : { ...state, selected: null };
  const from = state.selected ?? (step === 1 ? -1 : n);
  return { ...state, selected: (((from + step) % n) + n) % n };
}

function select(state: EditorState, index: number | null): EditorState {
  const selected = validIndex(state, index) ? index : null;
  return selected === state.selected ? state : { ...state, selected };
}

// Undo and redo bring back boxes as they were, but not beyond the limit: that would be drawing by other means.
function historyStep(state: EditorState, step: (state: EditorState) => EditorState): EditorState {
  const next = step(state);
  return next !== state && addsBeyondLimit(state, next.boxes.length) ? refusedAtLimit(state) : next;
}

// Boxes from outside (the `boxes` prop: another tab's edit, a loaded draft) start the undo history afresh:
// an undo here must not take back what was done elsewhere, which its snapshots know nothing of.
function replaceBoxes(state: EditorState, boxes: Box[]): EditorState {
  return { ...state, boxes, selected: state.selected !== null && state.selected < boxes.length ? state.selected : null, past: [], future: [] };
}

/** The one place editor state changes. Pure: no React, no Konva, no DOM. */
export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  switch (action.type) {
    case 'imageLoaded':
      return fitted({ ...state, image: action.size, selected: null, past: [], future: [] });
    case 'stageResized':
      if (state.stage && state.stage.width === action.size.width && state.stage.height === action.size.height) {
        return state;
      }
      return state.autoFit ? fitted({ ...state, stage: action.size }) : { ...state, stage: action.size };
    case 'labelsChanged': {
      const currentLabel = action.labels.includes(state.currentLabel) ? state.currentLabel : (action.labels[0] ?? '');
      return { ...state, labels: action.labels, currentLabel };
    }
    case 'readOnlyChanged':
      return action.readOnly === state.readOnly ? state : { ...state, readOnly: action.readOnly };
    case 'maxBoxesChanged': {
      const maxBoxes = boxLimit(action.maxBoxes);
      return maxBoxes === state.maxBoxes ? state : { ...state, maxBoxes };
    }
    case 'boxesReplaced':
      return replaceBoxes(state, action.boxes);
    case 'drawBox':
      return drawBox(state, action.rect);
    case 'placeBox':
      return placeBox(state);
    case 'moveBox':
      return moveBox(state, action.index, action.dx, action.dy);
    case 'resizeBox':
      return resizeBox(state, action.index, action.rect);
    case 'deleteBox':
      return deleteBox(state, action.index);
    case 'relabelBox':
      return relabelBox(state, action.index, action.label);
    case 'select':
      return select(state, action.index);
    case 'cycleSelection':
      return cycleSelection(state, action.step);
    case 'nudgeSelected':
      return moveBox(state, state.selected, action.dx, action.dy);
    case 'resizeSelected':
      return growSelected(state, action.dw, action.dh);
    case 'deleteSelected':
      return deleteBox(state, state.selected);
    case 'pickLabel':
      return pickLabel(state, action.label);
    case 'pickLabelNumber': {
      const label = state.labels[action.number - 1];
      return label === undefined ? state : pickLabel(state, label);
    }
    case 'undo':
      return historyStep(state, undo);
    case 'redo':
      return historyStep(state, redo);
    case 'zoomAt':
      return zoomedAt(state, action.screenPoint, action.factor);
    case 'zoomBy':
      return zoomedAt(state, stageCentre(state), action.factor);
    case 'pan':
      return panned(state, action.dx, action.dy);
    case 'fit':
      return fitted(state);
  }
}
