import type { Box } from '../box.types';
import { iou, rectIou } from '../iou.util';

const b = (center_x: number, center_y: number, width: number, height: number): Box => ({
  label: 'a',
  center_x,
  center_y,
  width,
  height,
});

describe('iou', () => {
  it('is 1 for identical boxes', () => {
    expect(iou(b(10, 10, 4, 4), b(10, 10, 4, 4))).toBe(1);
  });

  it('computes intersection over union for partial overlap', () => {
    // [0,10]x[0,10] and [5,15]x[0,10]: 50 / 150.
    expect(iou(b(5, 5, 10, 10), b(10, 5, 10, 10))).toBeCloseTo(1 / 3, 12);
  });

  it('is symmetric and ignores labels', () => {
    const a = { ...b(5, 5, 10, 10), label: 'cat' };
    const c = { ...b(8, 7, 6, 9), label: 'dog' };
    expect(iou(a, c)).toBe(iou(c, a));
    expect(iou(a, c)).toBeGreaterThan(0);
  });

  it('is 0 for disjoint or merely touching boxes', () => {
    expect(iou(b(5, 5, 10, 10), b(50, 50, 10, 10))).toBe(0);
    expect(iou(b(5, 5, 10, 10), b(15, 5, 10, 10))).toBe(0);
  });

  it('is 0 when either box has zero area, and for NaN', () => {
    expect(iou(b(5, 5, 0, 10), b(5, 5, 10, 10))).toBe(0);
    expect(iou(b(5, 5, 10, 0), b(5, 5, 0, 0))).toBe(0);
    expect(iou(b(Number.NaN, 5, 10, 10), b(5, 5, 10, 10))).toBe(0);
  });

  it('is a finite IoU, never NaN, for sizes whose areas overflow or underflow a double', () => {
    // Areas of 1e400 are Infinity (the union Infinity - Infinity = NaN), of 1e-400 are 0 (0 / 0).
    expect(rectIou({ x0: 0, y0: 0, x1: 1e200, y1: 1e200 }, { x0: 0, y0: 0, x1: 1e200, y1: 1e200 })).toBe(1);
    expect(rectIou({ x0: 0, y0: 0, x1: 1e200, y1: 1e200 }, { x0: 0, y0: 0, x1: 1e200, y1: 1e199 })).toBeCloseTo(0.1, 12);
    expect(rectIou({ x0: 0, y0: 0, x1: 1e-200, y1: 1e-200 }, { x0: 0, y0: 0, x1: 1e-200, y1: 5e-201 })).toBeCloseTo(0.5, 12);
    // Sizes that are themselves Infinity (edges ±1e308) cannot be measured: no overlap, as for NaN.
    expect(rectIou({ x0: -1e308, y0: 0, x1: 1e308, y1: 10 }, { x0: -1e308, y0: 0, x1: 1e308, y1: 10 })).toBe(0);
  });

  it('treats an inverted rect as having no area', () => {
    expect(rectIou({ x0: 10, y0: 10, x1: 0, y1: 0 }, { x0: 0, y0: 0, x1: 10, y1: 10 })).toBe(0);
  });
});
