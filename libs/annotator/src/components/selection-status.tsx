import type { JSX } from 'react';
import type { Box } from '@crowdbox/boxes';
import * as s from './annotator.styles';

/** Edited boxes are integers; read-only ones (a consensus) may not be, and get one decimal. */
const num = (n: number): string => (Number.isInteger(n) ? String(n) : n.toFixed(1));

/** The selected box in words: "Box 3 of 5, car, 120×80 at 40,60" (size, then the top-left corner, image pixels). */
export function describeSelection(boxes: readonly Box[], selected: number | null): string {
  const box = selected === null ? undefined : boxes[selected];
  if (!box || selected === null) return '';
  const at = `${num(box.center_x - box.width / 2)},${num(box.center_y - box.height / 2)}`;
  return `Box ${selected + 1} of ${boxes.length}, ${box.label || 'no label'}, ${num(box.width)}×${num(box.height)} at ${at}`;
}

/**
 * A polite status that says the selected box whenever the selection or that box changes (Tab, N, an
 * arrow, a relabel), so a worker who cannot see the canvas knows what they are shaping.
 */
export function SelectionStatus({ boxes, selected }: { boxes: readonly Box[]; selected: number | null }): JSX.Element {
  return (
    <div role="status" data-testid="annotator-selection-status" style={s.visuallyHidden}>
      {describeSelection(boxes, selected)}
    </div>
  );
}
