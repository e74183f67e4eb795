export type { EditorSnapshot, EditorState } from './editor-state.types';
export type { EditorAction } from './editor.actions';
export { actions } from './editor.actions';
export { editorReducer } from './editor.reducer';
export { createEditorStore, createInitialState } from './editor-store';
export type { EditorInit, EditorStore } from './editor-store';
export { activeLabel, canAddBox, canRedo, canUndo, selectedBox } from './editor.selectors';
export { MIN_BOX_SIZE, toStoredBox } from './box-edit.util';
export { HISTORY_LIMIT } from './history.util';
