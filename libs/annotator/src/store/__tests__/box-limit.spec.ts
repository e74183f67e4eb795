import { actions } from '../editor.actions';
import type { EditorAction } from '../editor.actions';
import { editorReducer } from '../editor.reducer';
import { canAddBox } from '../editor.selectors';
import type { EditorState } from '../editor-state.types';
import { createEditorStore } from '../editor-store';
import { box, editor } from './editor.fixtures';

const run = (state: EditorState, ...list: EditorAction[]): EditorState => list.reduce(editorReducer, state);

/** A drag from (x, y) to 40 image px right and below. */
const draw = (x: number, y: number) => actions.drawBox({ x0: x, y0: y, x1: x + 40, y1: y + 40 });

const TWO = [box('cat', 30, 30, 40, 40), box('dog', 130, 30, 40, 40)];

describe('a limit on the number of boxes', () => {
  it('draws up to the limit; at it, a drawing changes no box, records no undo step and counts a refusal', () => {
    const full = run(editor({ maxBoxes: 2 }), draw(10, 10), draw(110, 10));
    expect(full.boxes).toHaveLength(2);
    expect(canAddBox(full)).toBe(false);

    const refused = run(full, draw(300, 300));
    expect(refused.boxes).toBe(full.boxes);
    expect(refused.past).toBe(full.past);
    expect(refused.selected).toBe(full.selected);
    expect(refused.refusedAtLimit).toBe(1);
    expect(run(refused, draw(400, 400)).refusedAtLimit).toBe(2);
  });

  it('has no limit without one: 600 drawings make 600 boxes', () => {
    const state = run(editor(), ...Array.from({ length: 600 }, (_, i) => draw(i % 700, Math.floor(i / 700) * 50)));
    expect(state.maxBoxes).toBeNull();
    expect(state.boxes).toHaveLength(600);
    expect(canAddBox(state)).toBe(true);
  });

  it('still moves, resizes, relabels and deletes at the limit; a deletion makes room for one drawing', () => {
    const full = editor({ maxBoxes: 2, boxes: TWO });
    const edited = run(
      full,
      actions.moveBox(0, 10, 0),
      actions.resizeBox(1, { x0: 110, y0: 10, x1: 170, y1: 60 }),
      actions.relabelBox(0, 'bird'),
      actions.select(1),
      actions.nudgeSelected(0, 5),
      actions.resizeSelected(2, 2),
    );
    expect(edited.boxes).toEqual([box('bird', 40, 30, 40, 40), box('dog', 140, 40, 62, 52)]);
    expect(edited.refusedAtLimit).toBe(0);

    const deleted = run(edited, actions.deleteSelected());
    expect(deleted.boxes).toHaveLength(1);
    const redrawn = run(deleted, draw(300, 300), draw(500, 300));
    expect(redrawn.boxes).toEqual([box('bird', 40, 30, 40, 40), box('cat', 320, 320, 40, 40)]);
    expect(redrawn.refusedAtLimit).toBe(1);
  });

  it('keeps boxes given beyond the limit, and draws again only once they are below it', () => {
    const over = run(editor({ maxBoxes: 1 }), actions.boxesReplaced([...TWO, box('cat', 230, 30, 40, 40)]));
    expect(over.boxes).toHaveLength(3);
    const one = run(over, draw(300, 300), actions.deleteBox(2), draw(300, 300), actions.deleteBox(1), draw(300, 300));
    expect(one.boxes).toEqual([TWO[0]]);
    expect(one.refusedAtLimit).toBe(3);
    expect(run(one, actions.deleteBox(0), draw(300, 300)).boxes).toEqual([box('cat', 320, 320, 40, 40)]);
  });

  it('refuses an undo or redo that would add a box beyond the limit, and takes any other', () => {
    // Undo and redo of a drawing within the limit.
    const drawn = run(editor({ maxBoxes: 2 }), draw(10, 10), draw(110, 10));
    expect(run(drawn, actions.undo(), actions.redo()).boxes).toEqual(drawn.boxes);
    // A redo of a drawing after the limit went down (a prop change) would go beyond it.
    const lowered = run(drawn, actions.undo(), actions.maxBoxesChanged(1));
    const redo = run(lowered, actions.redo());
    expect(redo.boxes).toBe(lowered.boxes);
    expect(redo.future).toBe(lowered.future);
    expect(redo.refusedAtLimit).toBe(1);
    // Over the limit, an undo of a deletion would add the deleted box back.
    const over = run(editor({ maxBoxes: 1 }), actions.boxesReplaced(TWO), actions.deleteBox(1));
    expect(run(over, actions.undo()).boxes).toEqual([TWO[0]]);
    // Lifting the limit lets it through.
    expect(run(over, actions.maxBoxesChanged(null), actions.undo()).boxes).toEqual(TWO);
  });

  it('over the limit, undoes and redoes an edit that adds no box: only adding beyond it is refused', () => {
    const over = run(editor({ maxBoxes: 1 }), actions.boxesReplaced(TWO));
    const moved = run(over, actions.moveBox(0, 10, 0));
    expect(moved.boxes[0]).toEqual(box('cat', 40, 30, 40, 40));
    const undone = run(moved, actions.undo());
    expect(undone.boxes).toEqual(TWO);
    expect(undone.refusedAtLimit).toBe(0);
    expect(run(undone, actions.redo()).boxes).toEqual(moved.boxes);
  });

  it('takes the limit from the store init and as a whole number of boxes', () => {
    expect(createEditorStore({ maxBoxes: 3 }).getState().maxBoxes).toBe(3);
    expect(createEditorStore({}).getState().maxBoxes).toBeNull();
    expect(run(editor(), actions.maxBoxesChanged(2.7)).maxBoxes).toBe(2);
    expect(run(editor(), actions.maxBoxesChanged(-1)).maxBoxes).toBe(0);
    const same = editor({ maxBoxes: 2 });
    expect(run(same, actions.maxBoxesChanged(2))).toBe(same);
  });

  it('refuses a drawing only while editing: read-only, nothing is drawn or counted', () => {
    const readOnly = editor({ maxBoxes: 0, readOnly: true });
    expect(run(readOnly, draw(10, 10))).toBe(readOnly);
  });
});
