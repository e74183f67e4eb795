// The bounding-box editor: a React + Konva component over one pure editor store.
export type { AnnotatorProps, ImageStatus, OverlayBoxSet } from './annotator.types';
export { Annotator } from './components/annotator';
export { KeymapHelp } from './components/keymap-help';
export type { KeymapHelpProps } from './components/keymap-help';

// The store, for tests and for callers that drive the editor themselves.
export * from './store';

// The keymap the editor runs and shows.
export { KEYMAP } from './keymap/keymap';
export type { KeyBinding, KeyCommand, KeyScope, UiCommand } from './keymap/keymap';
export { formatCombo } from './keymap/key-combo.util';
export { EDITOR_KEYS_HERE } from './keymap/key-scope.util';
