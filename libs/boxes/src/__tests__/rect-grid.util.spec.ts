import fc from 'fast-check';
import type { Rect } from '../box.types';
import { rectIou } from '../iou.util';
import { RectGrid } from '../rect-grid.util';

const hasArea = (r: Rect) => r.x1 > r.x0 && r.y1 > r.y0;
const sharesArea = (a: Rect, b: Rect) => hasArea(a) && hasArea(b) && a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

/** Integer edges in a small square, so that rects often touch, coincide or nest; some span it all. */
const rect = fc
  .record({ x: fc.integer({ min: -5, max: 60 }), y: fc.integer({ min: -5, max: 60 }), w: fc.integer({ min: 0, max: 70 }), h: fc.integer({ min: 0, max: 70 }) })
  .map(({ x, y, w, h }): Rect => ({ x0: x, y0: y, x1: x + w, y1: y + h }));

describe('RectGrid', () => {
  it('finds, once each, exactly the inserted rects that share area with the query (those rectIou does not give 0)', () => {
    fc.assert(
      fc.property(fc.array(rect, { maxLength: 80 }), fc.array(rect, { minLength: 1, maxLength: 10 }), (rects, queries) => {
        const grid = new RectGrid(rects);
        rects.forEach((r, id) => grid.insert(id, r));
        for (const query of [...queries, ...rects]) {
          const found: number[] = [];
          grid.overlapping(query, found);
          const expected = rects.flatMap((r, id) => (sharesArea(r, query) ? [id] : []));
          expect([...found].sort((a, b) => a - b)).toEqual(expected);
          for (const id of expected) expect(rectIou(query, rects[id])).toBeGreaterThan(0);
          expect(grid.nearby(query)).toBeGreaterThanOrEqual(found.length);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('finds rects inserted a few at a time, and queries beyond the fitted span', () => {
    const rects: Rect[] = Array.from({ length: 200 }, (_, i) => ({ x0: (i % 20) * 10, y0: Math.floor(i / 20) * 10, x1: (i % 20) * 10 + 4, y1: Math.floor(i / 20) * 10 + 4 }));
    const grid = new RectGrid(rects);
    const found = (query: Rect) => {
      const out: number[] = [];
      grid.overlapping(query, out);
      return out.sort((a, b) => a - b);
    };
    grid.insert(0, rects[0]);
    grid.insert(21, rects[21]);
    expect(found({ x0: -100, y0: -100, x1: 1000, y1: 1000 })).toEqual([0, 21]);
    expect(found({ x0: 3, y0: 3, x1: 12, y1: 12 })).toEqual([0, 21]);
    // Touching an edge is not sharing area.
    expect(found({ x0: 4, y0: 0, x1: 10, y1: 10 })).toEqual([]);
    expect(found({ x0: 2, y0: 2, x1: 2, y1: 3 })).toEqual([]);
    grid.insert(199, rects[199]);
    expect(found({ x0: 190, y0: 90, x1: 5000, y1: 5000 })).toEqual([199]);
  });
});
