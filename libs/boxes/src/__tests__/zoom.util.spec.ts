import { imageToScreen, screenToImage } from '../transform.util';
import type { Viewport } from '../viewport.types';
import { zoomAt } from '../zoom.util';

const limits = { minScale: 0.1, maxScale: 8 };

describe('zoomAt', () => {
  it('keeps the image point under the cursor fixed', () => {
    const viewport: Viewport = { scale: 1.3, offsetX: 40, offsetY: -25 };
    const cursor = { x: 312, y: 207 };
    const anchor = screenToImage(cursor, viewport);
    for (const factor of [1.1, 0.5, 2.7]) {
      const next = zoomAt(viewport, cursor, factor, limits);
      expect(next.scale).toBeCloseTo(1.3 * factor, 12);
      const still = imageToScreen(anchor, next);
      expect(still.x).toBeCloseTo(cursor.x, 9);
      expect(still.y).toBeCloseTo(cursor.y, 9);
    }
  });

  it('clamps the scale to the limits and still keeps the cursor point fixed', () => {
    const viewport: Viewport = { scale: 4, offsetX: 0, offsetY: 0 };
    const cursor = { x: 100, y: 80 };
    const next = zoomAt(viewport, cursor, 10, limits);
    expect(next.scale).toBe(8);
    const anchor = screenToImage(cursor, viewport);
    expect(imageToScreen(anchor, next).x).toBeCloseTo(100, 9);
    expect(zoomAt(viewport, cursor, 0.001, limits).scale).toBe(0.1);
  });

  it('returns the same viewport when the scale cannot change or the factor is unusable', () => {
    const atMax: Viewport = { scale: 8, offsetX: 3, offsetY: 4 };
    expect(zoomAt(atMax, { x: 1, y: 2 }, 1.5, limits)).toBe(atMax);
    expect(zoomAt(atMax, { x: 1, y: 2 }, 0, limits)).toBe(atMax);
    expect(zoomAt(atMax, { x: 1, y: 2 }, Number.NaN, limits)).toBe(atMax);
  });

  it('throws on invalid limits', () => {
    const v: Viewport = { scale: 1, offsetX: 0, offsetY: 0 };
    expect(() => zoomAt(v, { x: 0, y: 0 }, 2, { minScale: 0, maxScale: 2 })).toThrow(RangeError);
    expect(() => zoomAt(v, { x: 0, y: 0 }, 2, { minScale: 3, maxScale: 2 })).toThrow(RangeError);
  });
});
