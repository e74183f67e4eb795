import { memo, useCallback, useEffect, useRef } from 'react';
import type { JSX } from 'react';
import type { Box } from '@crowdbox/boxes';
import { UNKNOWN_LABEL_COLOR } from '../canvas/label-colors.util';
import * as s from './annotator.styles';

export interface BoxListProps {
  boxes: readonly Box[];
  /** The most boxes there may be, shown beside the count; null: no limit. */
  max?: number | null;
  selected: number | null;
  colors: ReadonlyMap<string, string>;
  editable: boolean;
  /** A drag on the image can draw (an editor whose image has loaded); the empty list says so. Default: editable. */
  drawable?: boolean;
  onSelect: (index: number) => void;
  onDelete: (index: number) => void;
}

/** Edited boxes are integers; read-only ones (a consensus) may not be, and get one decimal. */
const num = (n: number): string => (Number.isInteger(n) ? String(n) : n.toFixed(1));

/**
 * Scrolls the list (the item's parent) just enough to show the item, and nothing else: scrollIntoView
 * would also scroll the page where the list sits below the image (a phone), moving the image under the
 * pointer that just drew the box.
 */
export function revealInList(item: HTMLElement | null): void {
  const list = item?.parentElement;
  if (!item || !list) return;
  const i = item.getBoundingClientRect();
  const l = list.getBoundingClientRect();
  if (i.top < l.top) list.scrollTop -= l.top - i.top;
  else if (i.bottom > l.bottom) list.scrollTop += i.bottom - l.bottom;
}

interface BoxItemProps {
  box: Box;
  index: number;
  color: string;
  selected: boolean;
  editable: boolean;
  onSelect: (index: number) => void;
  onDelete: (index: number) => void;
}

const BoxItem = memo(function BoxItem({ box, index, color, selected, editable, onSelect, onDelete }: BoxItemProps): JSX.Element {
  const ref = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (selected) revealInList(ref.current);
  }, [selected]);
  return (
    <li
      ref={ref}
      data-testid="annotator-box-item"
      data-index={index}
      data-label={box.label}
      aria-current={selected ? true : undefined}
      data-selected={selected}
      style={{
        display: 'flex',
        alignItems: 'center',
        gap: 6,
        padding: '3px 4px',
        borderRadius: 3,
        background: selected ? '#e7f0ff' : undefined,
      }}
    >
      {/* Named by what it shows, after a hidden "Select box N:": a voice-control user says what they see
          (an aria-label of number and label alone left the coordinates out: axe's label-content-name-mismatch). */}
      <button type="button" onClick={() => onSelect(index)} style={s.listButton}>
        <span style={s.visuallyHidden}>Select box {index + 1}: </span>
        <span aria-hidden style={s.swatch(color)} />
        <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{box.label || '(no label)'}</span>{' '}
        <span style={{ marginLeft: 'auto', fontSize: 12, color: '#59636e', fontVariantNumeric: 'tabular-nums' }}>
          {num(box.center_x)},{num(box.center_y)} {num(box.width)}×{num(box.height)}
        </span>
      </button>
      {editable && (
        <button type="button" onClick={() => onDelete(index)} aria-label={`Delete box ${index + 1}`} style={{ ...s.button, padding: '0 6px' }}>
          ×
        </button>
      )}
    </li>
  );
});

/** The boxes beside the canvas: label, centre and size in image pixels; click selects. */
export function BoxList({ boxes, max = null, selected, colors, editable, drawable = editable, onSelect, onDelete }: BoxListProps): JSX.Element {
  const section = useRef<HTMLElement>(null);
  // Where the keyboard focus goes after the last row's × took its own row away: the row above's ×, or
  // the list itself when none is left (else it fell to the page's start). Any other row's × stays
  // focused: its row (keyed by position) now holds the next box.
  const focusAfterDelete = useRef<number | null>(null);
  const remove = useCallback(
    (index: number) => {
      if (index === boxes.length - 1) focusAfterDelete.current = index - 1;
      onDelete(index);
    },
    [boxes.length, onDelete],
  );
  useEffect(() => {
    const row = focusAfterDelete.current;
    if (row === null) return;
    focusAfterDelete.current = null;
    const target = row >= 0 ? section.current?.querySelector<HTMLElement>(`[data-index="${row}"] button[aria-label^="Delete"]`) : section.current;
    target?.focus();
  }, [boxes]);
  return (
    <section aria-label="Boxes" ref={section} tabIndex={-1} style={{ outline: 'none' }}>
      <h3 style={s.heading}>
        Boxes ({boxes.length}
        {max !== null && ` / ${max}`})
      </h3>
      {boxes.length === 0 && <p style={{ margin: 0, color: '#59636e' }}>{drawable ? 'Drag on the image, or press N, to draw a box.' : 'No boxes.'}</p>}
      <ul data-testid="annotator-box-list" style={s.list}>
        {boxes.map((box, index) => (
          <BoxItem
            key={index}
            box={box}
            index={index}
            color={colors.get(box.label) ?? UNKNOWN_LABEL_COLOR}
            selected={index === selected}
            editable={editable}
            onSelect={onSelect}
            onDelete={remove}
          />
        ))}
      </ul>
    </section>
  );
}
