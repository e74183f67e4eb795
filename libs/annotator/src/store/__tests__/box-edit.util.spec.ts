import { boxInsideImage } from '@crowdbox/boxes';
import { cutToStoredBox, grownBox, MIN_BOX_SIZE, movedBox, sameBoxes, toStoredBox } from '../box-edit.util';
import { box, IMAGE } from './editor.fixtures';

describe('toStoredBox', () => {
  it('stores an inside rect as integer centre and size, rounding halves away from zero', () => {
    expect(toStoredBox('cat', { x0: 10.2, y0: 20.5, x1: 50.7, y1: 40 }, IMAGE)).toEqual(box('cat', 30, 30, 41, 20));
  });

  it('puts inverted edges in order (a drag up and to the left)', () => {
    expect(toStoredBox('cat', { x0: 50, y0: 40, x1: 10, y1: 20 }, IMAGE)).toEqual(box('cat', 30, 30, 40, 20));
  });

  it('grows a too small rect to the minimum size around its middle', () => {
    expect(toStoredBox('cat', { x0: 100, y0: 100, x1: 101, y1: 130 }, IMAGE)).toEqual(box('cat', 101, 115, MIN_BOX_SIZE, 30));
  });

  it('shifts a rect hanging off the image back inside without changing its size', () => {
    expect(toStoredBox('cat', { x0: -10, y0: 580, x1: 30, y1: 620 }, IMAGE)).toEqual(box('cat', 20, 580, 40, 40));
  });

  it('keeps an odd-sized box flush with the right edge inside the image instead of half a pixel out', () => {
    const stored = toStoredBox('cat', { x0: 795, y0: 0, x1: 800, y1: 5 }, IMAGE);
    expect(stored).toEqual(box('cat', 797, 3, 5, 5));
    expect(stored.center_x + stored.width / 2).toBeLessThanOrEqual(IMAGE.width);
  });

  it('never exceeds the image, and the minimum never exceeds a tiny image', () => {
    expect(toStoredBox('cat', { x0: -50, y0: -50, x1: 900, y1: 700 }, IMAGE)).toEqual(box('cat', 400, 300, 800, 600));
    expect(toStoredBox('cat', { x0: 0, y0: 0, x1: 1, y1: 1 }, { width: 3, height: 2 })).toEqual(box('cat', 2, 1, 3, 2));
  });
});

describe('cutToStoredBox', () => {
  it('cuts off the part outside the image (unlike a move, which shifts)', () => {
    expect(cutToStoredBox('cat', { x0: -10, y0: 580, x1: 30, y1: 620 }, IMAGE)).toEqual(box('cat', 15, 590, 30, 20));
  });

  it('returns null for a rect wholly outside the image', () => {
    expect(cutToStoredBox('cat', { x0: -40, y0: 10, x1: -10, y1: 50 }, IMAGE)).toBeNull();
  });
});

describe('movedBox and grownBox', () => {
  it('moves by whole and fractional pixels, keeping the size', () => {
    expect(movedBox(box('cat', 100, 100, 20, 10), 5, -3, IMAGE)).toEqual(box('cat', 105, 97, 20, 10));
    expect(movedBox(box('cat', 100, 100, 20, 10), 0.4, 0.6, IMAGE)).toEqual(box('cat', 100, 101, 20, 10));
  });

  it('stops at the image edge with the size unchanged', () => {
    expect(movedBox(box('cat', 15, 100, 20, 10), -50, 0, IMAGE)).toEqual(box('cat', 10, 100, 20, 10));
    expect(movedBox(box('cat', 790, 595, 20, 10), 50, 50, IMAGE)).toEqual(box('cat', 790, 595, 20, 10));
  });

  it('grows and shrinks around the centre, not below the minimum', () => {
    expect(grownBox(box('cat', 100, 100, 20, 10), 1, 0, IMAGE)).toEqual(box('cat', 100, 100, 21, 10));
    expect(grownBox(box('cat', 100, 100, 20, 10), 0, -10, IMAGE)).toEqual(box('cat', 100, 100, 20, MIN_BOX_SIZE));
  });

  it('grows a box touching an edge towards the free side', () => {
    const grown = grownBox(box('cat', 10, 100, 20, 10), 10, 0, IMAGE);
    expect(grown).toEqual(box('cat', 15, 100, 30, 10));
    expect(boxInsideImage(grown, IMAGE)).toBeNull();
  });
});

it('sameBoxes compares boxes field by field', () => {
  expect(sameBoxes([box('a', 1, 2, 3, 4)], [box('a', 1, 2, 3, 4)])).toBe(true);
  expect(sameBoxes([box('a', 1, 2, 3, 4)], [box('b', 1, 2, 3, 4)])).toBe(false);
  expect(sameBoxes([], [box('a', 1, 2, 3, 4)])).toBe(false);
});
