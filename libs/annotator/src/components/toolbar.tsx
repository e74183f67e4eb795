import type { JSX } from 'react';
import * as s from './annotator.styles';

export interface ToolbarProps {
  scale: number;
  /** What a screen reader is told of the zoom, once it settles ("Zoom 150%"). */
  zoomStatus: string;
  canUndo: boolean;
  canRedo: boolean;
  editable: boolean;
  helpOpen: boolean;
  onZoomIn: () => void;
  onZoomOut: () => void;
  onFit: () => void;
  onUndo: () => void;
  onRedo: () => void;
  onToggleHelp: () => void;
}

/** Zoom, fit, undo, redo and help as buttons: every key of the keymap has a pointer way too. */
export function Toolbar(props: ToolbarProps): JSX.Element {
  const { scale, canUndo, canRedo, editable, helpOpen } = props;
  return (
    <div role="toolbar" aria-label="Annotator tools" style={s.toolbar}>
      <button type="button" style={s.button} onClick={props.onZoomOut} aria-label="Zoom out" title="Zoom out (−)">
        −
      </button>
      {/* Follows every frame of a wheel zoom: seen, not announced (the status beside it says where it settled). */}
      <span data-testid="annotator-zoom" style={{ minWidth: 48, textAlign: 'center', fontVariantNumeric: 'tabular-nums' }}>
        {Math.round(scale * 100)}%
      </span>
      <span role="status" data-testid="annotator-zoom-status" style={s.visuallyHidden}>
        {props.zoomStatus}
      </span>
      <button type="button" style={s.button} onClick={props.onZoomIn} aria-label="Zoom in" title="Zoom in (+)">
        +
      </button>
      <button type="button" style={s.button} onClick={props.onFit} title="Fit to screen (0 or F)">
        Fit
      </button>
      {editable && (
        <>
          <button type="button" style={s.button} onClick={props.onUndo} disabled={!canUndo} title="Undo (Ctrl/⌘+Z)">
            Undo
          </button>
          <button type="button" style={s.button} onClick={props.onRedo} disabled={!canRedo} title="Redo (Ctrl/⌘+Shift+Z, Ctrl+Y)">
            Redo
          </button>
        </>
      )}
      <button type="button" style={s.button} onClick={props.onToggleHelp} aria-pressed={helpOpen} aria-label="Keyboard shortcuts" title="Keyboard shortcuts (?)">
        ?
      </button>
    </div>
  );
}
