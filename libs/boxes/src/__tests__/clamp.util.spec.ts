import { boxToRect, rectToBox } from '../box-rect.util';
import { clampBox, clampRect } from '../clamp.util';
import { boxInsideImage } from '../validate.util';

const image = { width: 640, height: 480 };

describe('clampRect', () => {
  it('keeps edges within [0,width] x [0,height]', () => {
    expect(clampRect({ x0: -10, y0: -5, x1: 700, y1: 500 }, image)).toEqual({ x0: 0, y0: 0, x1: 640, y1: 480 });
  });

  it('normalises inverted edges (a drag up and to the left)', () => {
    expect(clampRect({ x0: 50, y0: 40, x1: 10, y1: 20 }, image)).toEqual({ x0: 10, y0: 20, x1: 50, y1: 40 });
  });

  it('collapses a rect fully outside onto the image edge', () => {
    expect(clampRect({ x0: 700, y0: 10, x1: 800, y1: 20 }, image)).toEqual({ x0: 640, y0: 10, x1: 640, y1: 20 });
  });
});

describe('clampBox', () => {
  it('rounds center and size after clamping: x0=0.5, x1=3 → center 1.75→2, width 2.5→3', () => {
    const box = rectToBox('a', { x0: 0.5, y0: 0.5, x1: 3, y1: 3 });
    const out = clampBox(box, image);
    expect(out).toEqual({ label: 'a', center_x: 2, center_y: 2, width: 3, height: 3 });
    // Center and size are rounded separately, so the edges read back on half pixels.
    expect(boxToRect(out)).toEqual({ x0: 0.5, y0: 0.5, x1: 3.5, y1: 3.5 });
  });

  it('clamps before rounding: only the visible part of a box hanging off the image counts', () => {
    // Edges -20.4..30.4 clamp to 0..30.4: center 15.2 → 15, width 30.4 → 30.
    const out = clampBox({ label: 'a', center_x: 5, center_y: 100, width: 50.8, height: 10 }, image);
    expect(out).toEqual({ label: 'a', center_x: 15, center_y: 100, width: 30, height: 10 });
  });

  it('clamps a box flush with the right/bottom edge and keeps it valid', () => {
    const out = clampBox(rectToBox('a', { x0: 600, y0: 470, x1: 700, y1: 490 }), image);
    expect(out).toEqual({ label: 'a', center_x: 620, center_y: 475, width: 40, height: 10 });
    expect(boxInsideImage(out, image)).toBeNull();
  });

  it('an odd size flush with the image edge overhangs by exactly half a pixel, which validation accepts', () => {
    const small = { width: 3, height: 3 };
    const out = clampBox(rectToBox('a', { x0: 0, y0: 0, x1: 3, y1: 3 }), small);
    expect(out).toEqual({ label: 'a', center_x: 2, center_y: 2, width: 3, height: 3 });
    expect(boxToRect(out).x1).toBe(3.5);
    expect(boxInsideImage(out, small)).toBeNull();
  });

  it('always yields integers within the image that pass boxInsideImage (grid of sub-pixel edges)', () => {
    const small = { width: 7, height: 5 };
    const steps = [-1, 0, 0.1, 0.24, 0.25, 0.5, 0.75, 1, 2.5, 3, 4.49, 4.5, 5, 6.5, 7, 8];
    for (const x0 of steps) {
      for (const x1 of steps) {
        if (Math.abs(Math.min(x1, 7) - Math.max(x0, 0)) < 1 || x1 <= x0) continue; // needs >= 1 px
        const out = clampBox(rectToBox('g', { x0, y0: x0 * 0.6, x1, y1: x1 * 0.6 }), small);
        for (const v of [out.center_x, out.center_y, out.width, out.height]) expect(Number.isInteger(v)).toBe(true);
        expect(out.center_x).toBeGreaterThanOrEqual(0);
        expect(out.center_x).toBeLessThanOrEqual(7);
        expect(out.width).toBeLessThanOrEqual(7);
        if (out.height > 0) expect(boxInsideImage(out, small)).toBeNull();
      }
    }
  });
});
