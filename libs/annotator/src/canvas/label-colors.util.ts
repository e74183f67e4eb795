import { KonvaCore } from './konva-parts';
import type { LabelInfo } from '@crowdbox/contracts';

/** Colour of a box whose label is not among the project's labels. */
export const UNKNOWN_LABEL_COLOR = '#9e9e9e';

export function labelColors(labels: readonly LabelInfo[]): Map<string, string> {
  return new Map(labels.map((l) => [l.name, l.color]));
}

/** The colour with another alpha, for the fill of a selected box; any CSS colour Konva can parse. */
export function withAlpha(color: string, alpha: number): string {
  const { r, g, b } = KonvaCore.Util.colorToRGBA(color) ?? { r: 158, g: 158, b: 158 };
  return `rgba(${r}, ${g}, ${b}, ${alpha})`;
}
