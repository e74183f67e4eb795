import { actions } from '../editor.actions';
import { activeLabel, canRedo, canUndo, selectedBox } from '../editor.selectors';
import { createEditorStore, createInitialState } from '../editor-store';
import { box, editor } from './editor.fixtures';

describe('createEditorStore', () => {
  it('starts from boxes and labels, with the first label current', () => {
    const state = createEditorStore({ boxes: [box('dog', 5, 5, 4, 4)], labels: ['cat', 'dog'] }).getState();
    expect(state).toEqual(createInitialState({ boxes: [box('dog', 5, 5, 4, 4)], labels: ['cat', 'dog'] }));
    expect(state.currentLabel).toBe('cat');
  });

  it('notifies subscribers on a change only, and stops after unsubscribing', () => {
    const store = createEditorStore(editor());
    const listener = jest.fn();
    const unsubscribe = store.subscribe(listener);
    store.dispatch(actions.drawBox({ x0: 0, y0: 0, x1: 10, y1: 10 }));
    store.dispatch(actions.select(0)); // already selected: no change
    expect(listener).toHaveBeenCalledTimes(1);
    unsubscribe();
    store.dispatch(actions.undo());
    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.getState().boxes).toEqual([]);
  });

  it('answers the selectors the UI asks', () => {
    const store = createEditorStore(editor({ currentLabel: 'dog' }));
    expect(activeLabel(store.getState())).toBe('dog');
    store.dispatch(actions.drawBox({ x0: 0, y0: 0, x1: 10, y1: 10 }));
    store.dispatch(actions.pickLabel('bird'));
    expect(selectedBox(store.getState())).toEqual(box('bird', 5, 5, 10, 10));
    expect(activeLabel(store.getState())).toBe('bird');
    expect(canUndo(store.getState())).toBe(true);
    expect(canRedo(store.getState())).toBe(false);
  });

  it('keeps the current label when the labels change and it is still among them', () => {
    const store = createEditorStore(editor({ currentLabel: 'dog' }));
    store.dispatch(actions.labelsChanged(['dog', 'cow']));
    expect(store.getState().currentLabel).toBe('dog');
    store.dispatch(actions.labelsChanged(['cow']));
    expect(store.getState().currentLabel).toBe('cow');
  });

  it('keeps the selection on the same box when an earlier one is deleted', () => {
    const store = createEditorStore(editor({ boxes: [box('cat', 10, 10, 4, 4), box('dog', 20, 20, 4, 4)], selected: 1 }));
    store.dispatch(actions.deleteBox(0));
    expect(store.getState().selected).toBe(0);
    expect(selectedBox(store.getState())?.label).toBe('dog');
  });
});
