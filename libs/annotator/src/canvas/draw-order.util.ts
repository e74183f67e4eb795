import type { Box } from '@crowdbox/boxes';

/**
 * The order boxes are drawn in, as box indexes: largest area first, so where boxes overlap the smaller
 * one is on top and takes the press. Each box takes presses on its whole area, so in index order a
 * person box drawn around an earlier face box covered it: the face could no longer be clicked or dragged.
 * Equal areas keep their index order. The indexes themselves (the store's, onChange's) do not change.
 */
export function drawOrder(boxes: readonly Box[]): number[] {
  return boxes
    .map((box, index) => ({ index, area: box.width * box.height }))
    .sort((a, b) => b.area - a.area || a.index - b.index)
    .map((entry) => entry.index);
}
