import { actions } from '../editor.actions';
import { editorReducer } from '../editor.reducer';
import type { EditorAction } from '../editor.actions';
import type { EditorState } from '../editor-state.types';
import { HISTORY_LIMIT } from '../history.util';
import { box, editor } from './editor.fixtures';

const run = (state: EditorState, ...list: EditorAction[]): EditorState => list.reduce(editorReducer, state);

describe('undo and redo', () => {
  const drawn = run(
    editor(),
    actions.drawBox({ x0: 10, y0: 10, x1: 50, y1: 50 }),
    actions.drawBox({ x0: 100, y0: 100, x1: 140, y1: 160 }),
    actions.nudgeSelected(5, 0),
  );

  it('undoes edits one at a time, restoring the boxes and the selection of the time', () => {
    expect(drawn.boxes).toEqual([box('cat', 30, 30, 40, 40), box('cat', 125, 130, 40, 60)]);
    const once = run(drawn, actions.undo());
    expect(once.boxes).toEqual([box('cat', 30, 30, 40, 40), box('cat', 120, 130, 40, 60)]);
    const thrice = run(once, actions.undo(), actions.undo());
    expect(thrice.boxes).toEqual([]);
    expect(thrice.selected).toBeNull();
    expect(run(thrice, actions.undo())).toBe(thrice);
  });

  it('redoes what was undone, with Ctrl+Shift+Z or Ctrl+Y alike', () => {
    const back = run(drawn, actions.undo(), actions.undo());
    const again = run(back, actions.redo(), actions.redo());
    expect(again.boxes).toEqual(drawn.boxes);
    expect(again.selected).toBe(1);
    expect(run(again, actions.redo())).toBe(again);
  });

  it('brings a deleted box back, selected', () => {
    const deleted = run(drawn, actions.select(0), actions.deleteSelected());
    expect(deleted.boxes).toHaveLength(1);
    const restored = run(deleted, actions.undo());
    expect(restored.boxes).toEqual(drawn.boxes);
    expect(restored.selected).toBe(0);
  });

  it('drops the redo stack on a new edit', () => {
    const branched = run(drawn, actions.undo(), actions.nudgeSelected(0, 3));
    expect(branched.future).toEqual([]);
    expect(run(branched, actions.redo())).toBe(branched);
  });

  it('records no step for edits that change nothing, selection changes, zoom or pan', () => {
    const atEdge = editor({ boxes: [box('cat', 20, 20, 40, 40)], selected: 0 });
    const after = run(atEdge, actions.nudgeSelected(-5, 0), actions.pickLabel('cat'), actions.select(null), actions.zoomBy(2), actions.pan(5, 5));
    expect(after.past).toEqual([]);
  });

  it('does not change the boxes of a read-only editor', () => {
    const readOnly = { ...drawn, readOnly: true };
    expect(run(readOnly, actions.undo())).toBe(readOnly);
  });

  it(`keeps the last ${HISTORY_LIMIT} steps`, () => {
    let state = editor({ boxes: [box('cat', 300, 300, 40, 40)], selected: 0 });
    for (let i = 0; i < HISTORY_LIMIT + 20; i++) state = editorReducer(state, actions.nudgeSelected(i % 2 ? -1 : 1, 0));
    expect(state.past).toHaveLength(HISTORY_LIMIT);
  });

  it('clears the undo history for boxes that come from outside (another tab on the lease) and for a new image', () => {
    // An undo after another tab's edit would take back that edit along with this tab's last step.
    const replaced = run(drawn, actions.boxesReplaced([box('dog', 1, 1, 2, 2)]));
    expect(drawn.past.length).toBeGreaterThan(0);
    expect(replaced.past).toEqual([]);
    expect(replaced.future).toEqual([]);
    expect(run(replaced, actions.undo()).boxes).toEqual([box('dog', 1, 1, 2, 2)]);
    expect(replaced.selected).toBeNull();
    const newImage = run(drawn, actions.imageLoaded({ width: 100, height: 100 }));
    expect(newImage.past).toEqual([]);
    expect(newImage.future).toEqual([]);
  });
});
