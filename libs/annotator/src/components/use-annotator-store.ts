import { useCallback, useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { Box } from '@crowdbox/boxes';
import { sameBoxes } from '../store/box-edit.util';
import { actions } from '../store/editor.actions';
import type { EditorAction } from '../store/editor.actions';
import type { EditorState } from '../store/editor-state.types';
import { createEditorStore } from '../store/editor-store';
import type { EditorStore } from '../store/editor-store';

export interface AnnotatorStoreInput {
  boxes: Box[];
  labels: string[];
  editable: boolean;
  /** null: no limit. */
  maxBoxes: number | null;
  onChange?: (boxes: Box[]) => void;
}

export interface AnnotatorStore {
  store: EditorStore;
  state: EditorState;
  /** Runs an action; when it changed the boxes, onChange hears the new (integer) boxes. */
  dispatch: (action: EditorAction) => void;
}

/**
 * Binds the pure store to React and to the controlled `boxes` prop. The store holds the boxes while
 * editing; a `boxes` prop that differs from them (another tab's edit, the next task) replaces them
 * without being an undo step (and clears the history), and the boxes the store emitted coming back as
 * the prop change nothing.
 */
export function useAnnotatorStore(input: AnnotatorStoreInput): AnnotatorStore {
  const [store] = useState(() => createEditorStore({ boxes: input.boxes, labels: input.labels, readOnly: !input.editable, maxBoxes: input.maxBoxes }));
  const state = useSyncExternalStore(store.subscribe, store.getState, store.getState);

  const onChange = useRef(input.onChange);
  useEffect(() => {
    onChange.current = input.onChange;
  });

  const labelsKey = input.labels.join('\u0000');
  useLayoutEffect(() => {
    store.dispatch(actions.labelsChanged(labelsKey === '' ? [] : labelsKey.split('\u0000')));
  }, [store, labelsKey]);
  useLayoutEffect(() => {
    store.dispatch(actions.readOnlyChanged(!input.editable));
  }, [store, input.editable]);
  useLayoutEffect(() => {
    store.dispatch(actions.maxBoxesChanged(input.maxBoxes));
  }, [store, input.maxBoxes]);
  useLayoutEffect(() => {
    if (!sameBoxes(input.boxes, store.getState().boxes)) store.dispatch(actions.boxesReplaced(input.boxes));
  }, [store, input.boxes]);

  const dispatch = useCallback(
    (action: EditorAction) => {
      const before = store.getState().boxes;
      const after = store.dispatch(action).boxes;
      if (after !== before) onChange.current?.(after);
    },
    [store],
  );

  return { store, state, dispatch };
}
