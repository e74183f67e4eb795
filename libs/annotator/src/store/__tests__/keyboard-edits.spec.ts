import { KEYMAP } from '../../keymap/keymap';
import { resolveKey } from '../../keymap/key-scope.util';
import type { FocusPlace } from '../../keymap/key-scope.util';
import { editorReducer } from '../editor.reducer';
import type { EditorState } from '../editor-state.types';
import { box, editor, ZOOM_2_7 } from './editor.fixtures';

/** Presses a key the way the component does: resolve it in the keymap, run its store action. */
function press(state: EditorState, key: string, mods: { shift?: boolean; alt?: boolean; ctrl?: boolean; meta?: boolean } = {}, focus: FocusPlace = 'stage'): EditorState {
  const resolved = resolveKey(
    KEYMAP,
    { key, shiftKey: !!mods.shift, altKey: !!mods.alt, ctrlKey: !!mods.ctrl, metaKey: !!mods.meta },
    { focus, helpOpen: false, hasSelection: state.selected !== null, boxCount: state.boxes.length },
  );
  if (!resolved || !('action' in resolved.command)) throw new Error(`no store action for ${key}`);
  return editorReducer(state, resolved.command.action);
}

const two = (overrides: Partial<EditorState> = {}): EditorState =>
  editor({ boxes: [box('cat', 100, 100, 40, 20), box('dog', 300, 200, 50, 50)], selected: 0, ...overrides });

describe.each([
  ['zoom 1', undefined],
  ['zoom 2.7 with a pan', ZOOM_2_7],
])('keyboard edits at %s (in image pixels whatever the zoom)', (_name, viewport) => {
  const start = two(viewport ? { viewport } : {});

  it('nudges the selection 1 px with the arrows and 10 px with Shift', () => {
    expect(press(start, 'ArrowRight').boxes[0]).toEqual(box('cat', 101, 100, 40, 20));
    expect(press(start, 'ArrowUp').boxes[0]).toEqual(box('cat', 100, 99, 40, 20));
    expect(press(start, 'ArrowLeft', { shift: true }).boxes[0]).toEqual(box('cat', 90, 100, 40, 20));
    expect(press(start, 'ArrowDown', { shift: true }).boxes[0]).toEqual(box('cat', 100, 110, 40, 20));
  });

  it('resizes with Alt+arrows: right and down grow, left and up shrink (Shift: 10 px)', () => {
    expect(press(start, 'ArrowRight', { alt: true }).boxes[0]).toEqual(box('cat', 100, 100, 41, 20));
    expect(press(start, 'ArrowLeft', { alt: true }).boxes[0]).toEqual(box('cat', 100, 100, 39, 20));
    expect(press(start, 'ArrowDown', { alt: true, shift: true }).boxes[0]).toEqual(box('cat', 100, 100, 40, 30));
    expect(press(start, 'ArrowUp', { alt: true, shift: true }).boxes[0]).toEqual(box('cat', 100, 100, 40, 10));
  });

  it('deletes the selection with Delete and with Backspace', () => {
    expect(press(start, 'Delete').boxes).toEqual([box('dog', 300, 200, 50, 50)]);
    expect(press({ ...start, selected: 1 }, 'Backspace').boxes).toEqual([box('cat', 100, 100, 40, 20)]);
  });

  it('relabels the selection by number, and sets the next label when nothing is selected', () => {
    const relabelled = press(start, '3');
    expect(relabelled.boxes[0].label).toBe('bird');
    expect(relabelled.currentLabel).toBe('cat');
    const nothingSelected = press({ ...start, selected: null }, '2');
    expect(nothingSelected.boxes).toEqual(start.boxes);
    expect(nothingSelected.currentLabel).toBe('dog');
    // Key 9 with three labels does nothing.
    expect(press(start, '9')).toBe(start);
  });

  it('cycles the selection with Tab and Shift+Tab, and Escape deselects', () => {
    const none = { ...start, selected: null };
    expect(press(none, 'Tab').selected).toBe(0);
    expect(press(press(none, 'Tab'), 'Tab').selected).toBe(1);
    expect(press(start, 'Tab', { shift: true }).selected).toBe(1);
    expect(press({ ...start, selected: 1 }, 'Tab').selected).toBe(0);
    expect(press(start, 'Escape', {}, 'editor').selected).toBeNull();
  });

  it('undoes with Ctrl/Cmd+Z and redoes with Ctrl/Cmd+Shift+Z and Ctrl+Y', () => {
    const moved = press(start, 'ArrowRight');
    const undone = press(moved, 'z', { ctrl: true });
    expect(undone.boxes).toEqual(start.boxes);
    expect(press(undone, 'Z', { meta: true, shift: true }).boxes).toEqual(moved.boxes);
    expect(press(undone, 'y', { ctrl: true }).boxes).toEqual(moved.boxes);
    expect(press(moved, 'z', { meta: true }).boxes).toEqual(start.boxes);
  });

  it('keeps keyboard edits inside the image', () => {
    const atCorner = two({ boxes: [box('cat', 20, 10, 40, 20)], selected: 0, ...(viewport ? { viewport } : {}) });
    expect(press(atCorner, 'ArrowLeft', { shift: true }).boxes[0]).toEqual(box('cat', 20, 10, 40, 20));
    expect(press(atCorner, 'ArrowUp', { alt: true, shift: true }).boxes[0]).toEqual(box('cat', 20, 10, 40, 10));
  });
});

describe('keyboard zoom', () => {
  it('zooms around the centre of the stage with + and -, and 0 or f fits', () => {
    const start = two({ viewport: { scale: 1, offsetX: 0, offsetY: 0 } });
    const zoomed = press(start, '+', { shift: true }, 'editor');
    expect(zoomed.viewport.scale).toBeCloseTo(1.25);
    // The image point under the stage centre (400, 300) stays there.
    expect(400 * zoomed.viewport.scale + zoomed.viewport.offsetX).toBeCloseTo(400);
    expect(300 * zoomed.viewport.scale + zoomed.viewport.offsetY).toBeCloseTo(300);
    expect(press(zoomed, '-', {}, 'editor').viewport.scale).toBeCloseTo(1);
    const fitted = press(zoomed, 'f', {}, 'editor');
    expect(fitted.autoFit).toBe(true);
    expect(press(zoomed, '0', {}, 'editor').viewport).toEqual(fitted.viewport);
  });
});

describe('a box without a pointer (N)', () => {
  it('places a square a quarter of the view in the middle of the view, with the current label, selected', () => {
    const start = two({ selected: null, currentLabel: 'dog' });
    const placed = press(start, 'n', {}, 'editor');
    expect(placed.boxes).toEqual([...start.boxes, box('dog', 400, 300, 150, 150)]);
    expect(placed.selected).toBe(2);
    // Shaped at once with the edit keys, and one undo step.
    const shaped = press(press(placed, 'ArrowRight', { alt: true, shift: true }), 'ArrowLeft', { shift: true });
    expect(shaped.boxes[2]).toEqual(box('dog', 390, 300, 160, 150));
    expect(press(placed, 'z', { ctrl: true }).boxes).toEqual(start.boxes);
  });

  it('places it in the part of the image in view when zoomed and panned, and in the whole image when none is', () => {
    // At 2.7 the view shows image x 50.2–346.5, y 20.1–242.3: a 55.5 px square at its centre.
    expect(press(two({ selected: null, viewport: ZOOM_2_7 }), 'n', {}, 'editor').boxes[2]).toEqual(box('cat', 198, 131, 56, 56));
    expect(press(two({ selected: null, viewport: { scale: 1, offsetX: 2000, offsetY: 0 } }), 'n', {}, 'editor').boxes[2]).toEqual(box('cat', 400, 300, 150, 150));
  });

  it('places nothing at the box limit (and says so), when read-only, or before the image has loaded', () => {
    const full = two({ selected: null, maxBoxes: 2 });
    const refused = press(full, 'n', {}, 'editor');
    expect(refused.boxes).toBe(full.boxes);
    expect(refused.refusedAtLimit).toBe(1);
    const readOnly = two({ readOnly: true });
    expect(press(readOnly, 'n', {}, 'editor')).toBe(readOnly);
    const loading = two({ image: null });
    expect(press(loading, 'n', {}, 'editor')).toBe(loading);
  });
});
