// The bounding-box editor: a React + Konva component over one pure editor store.
export type { AnnotatorProps, OverlayBoxSet } from './annotator.types';
export { Annotator } from './components/annotator';
export { KeymapHelp } from './components/keymap-help';
export type { KeymapHelpProps } from './components/keymap-help';
export * from './store';
