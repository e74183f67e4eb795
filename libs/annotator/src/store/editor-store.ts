import type { Box } from '@crowdbox/boxes';
import type { EditorAction } from './editor.actions';
import { editorReducer } from './editor.reducer';
import type { EditorState } from './editor-state.types';
import { boxLimit } from './box-limit.util';

export interface EditorStore {
  getState(): EditorState;
  dispatch(action: EditorAction): EditorState;
  /** Calls the listener after every change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
}

export interface EditorInit {
  boxes?: Box[];
  labels?: string[];
  readOnly?: boolean;
  /** The most boxes an edit may leave; absent or null: no limit. */
  maxBoxes?: number | null;
}

export function createInitialState(init: EditorInit = {}): EditorState {
  const labels = init.labels ?? [];
  return {
    image: null,
    stage: null,
    boxes: init.boxes ?? [],
    selected: null,
    currentLabel: labels[0] ?? '',
    labels,
    viewport: { scale: 1, offsetX: 0, offsetY: 0 },
    autoFit: true,
    readOnly: init.readOnly ?? false,
    maxBoxes: boxLimit(init.maxBoxes),
    refusedAtLimit: 0,
    past: [],
    future: [],
  };
}

/** A tiny store around editorReducer, shaped for React's useSyncExternalStore. */
export function createEditorStore(init: EditorInit | EditorState = {}): EditorStore {
  let state = 'viewport' in init ? init : createInitialState(init);
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    dispatch(action) {
      const next = editorReducer(state, action);
      if (next !== state) {
        state = next;
        listeners.forEach((listener) => listener());
      }
      return state;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
