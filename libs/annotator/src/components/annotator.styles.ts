import type { CSSProperties } from 'react';

/* Inline styles: the library ships no stylesheet, so the apps need no CSS set-up to use it. */

export const root = (height: number | string | undefined): CSSProperties => ({
  display: 'flex',
  // On a narrow screen the sidebar goes below the stage.
  flexWrap: 'wrap',
  // Without a height of its own the editor fills its parent.
  height: height === undefined ? '100%' : undefined,
  gap: 12,
  alignItems: 'stretch',
  width: '100%',
  fontFamily: 'system-ui, sans-serif',
  fontSize: 14,
  color: '#1f2328',
});

export const stageColumn: CSSProperties = { flex: '1 1 320px', minWidth: 0, display: 'flex', flexDirection: 'column', gap: 6 };

export const stageWrapper = (height: number | string | undefined, cursor: string): CSSProperties => ({
  position: 'relative',
  flex: height === undefined ? '1 1 auto' : undefined,
  height,
  // At most 70% of a short screen (a phone held sideways is 390 px high), so what is around it stays in reach.
  minHeight: 'min(400px, 70svh)',
  background: '#2b2f36',
  borderRadius: 4,
  overflow: 'hidden',
  cursor,
  touchAction: 'none',
  userSelect: 'none',
});

/** Holds the Konva stage out of the layout, so the stage's own size never stops the wrapper shrinking. */
export const stageLayer: CSSProperties = { position: 'absolute', inset: 0 };

export const stageMessage: CSSProperties = {
  position: 'absolute',
  inset: 0,
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  padding: 16,
  color: '#f0f0f0',
  textAlign: 'center',
  pointerEvents: 'none',
};

/** The load error with its Retry button, which takes clicks (the loading message lets them through). */
export const stageError: CSSProperties = { ...stageMessage, flexDirection: 'column', gap: 12, pointerEvents: 'auto' };

export const sidebar: CSSProperties = { flex: '0 0 240px', display: 'flex', flexDirection: 'column', gap: 12, minWidth: 0 };

export const toolbar: CSSProperties = { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 4 };

export const button: CSSProperties = {
  font: 'inherit',
  padding: '3px 8px',
  border: '1px solid #c9ced6',
  borderRadius: 4,
  background: '#ffffff',
  cursor: 'pointer',
};

export const heading: CSSProperties = { margin: '0 0 4px', fontSize: 12, fontWeight: 600, textTransform: 'uppercase', color: '#59636e' };

export const swatch = (color: string): CSSProperties => ({
  display: 'inline-block',
  width: 12,
  height: 12,
  borderRadius: 2,
  background: color,
  flex: '0 0 auto',
});

/** Room above the first row and below the last for a row's focus ring, which the scrolling list would clip. */
export const list: CSSProperties = { listStyle: 'none', margin: 0, padding: '3px 0', overflowY: 'auto', maxHeight: 360 };

/**
 * A box row's select button, drawn as plain text. Only the look is reset, never the outline (as
 * `all: unset` would, inline, where no stylesheet can undo it): the keyboard focus ring stays the
 * browser's, or the app's own `:focus-visible` rule where the app has one.
 */
export const listButton: CSSProperties = {
  font: 'inherit',
  color: 'inherit',
  textAlign: 'left',
  background: 'none',
  border: 0,
  margin: 0,
  padding: 0,
  borderRadius: 2,
  flex: 1,
  minWidth: 0,
  display: 'flex',
  alignItems: 'center',
  gap: 6,
  cursor: 'pointer',
};

/** The notice at the box limit: a warning, readable on its own. */
export const limitNotice: CSSProperties = {
  margin: 0,
  padding: '6px 8px',
  borderRadius: 4,
  border: '1px solid #d4a72c',
  background: '#fff8c5',
  color: '#4d2d00',
};

/** Read by screen readers, not shown. */
export const visuallyHidden: CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  margin: -1,
  padding: 0,
  overflow: 'hidden',
  clip: 'rect(0, 0, 0, 0)',
  whiteSpace: 'nowrap',
  border: 0,
};
