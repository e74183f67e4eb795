import { imageRectToScreen, imageToScreen, screenRectToImage, screenToImage } from '../transform.util';
import type { Viewport } from '../viewport.types';

describe('imageToScreen / screenToImage', () => {
  it('applies screen = image * scale + offset', () => {
    expect(imageToScreen({ x: 10, y: 20 }, { scale: 2, offsetX: 5, offsetY: -7 })).toEqual({ x: 25, y: 33 });
    expect(screenToImage({ x: 25, y: 33 }, { scale: 2, offsetX: 5, offsetY: -7 })).toEqual({ x: 10, y: 20 });
  });

  it.each<[string, Viewport]>([
    ['scale 1 with a pan', { scale: 1, offsetX: 37, offsetY: -12.5 }],
    ['scale 2.7 with a pan', { scale: 2.7, offsetX: -143.25, offsetY: 61 }],
  ])('round-trips points at %s', (_name, viewport) => {
    for (const p of [
      { x: 0, y: 0 },
      { x: 639, y: 479 },
      { x: 123.456, y: 7.89 },
    ]) {
      const back = screenToImage(imageToScreen(p, viewport), viewport);
      expect(back.x).toBeCloseTo(p.x, 9);
      expect(back.y).toBeCloseTo(p.y, 9);
      const screen = { x: p.x * 3 - 50, y: p.y + 11 };
      const again = imageToScreen(screenToImage(screen, viewport), viewport);
      expect(again.x).toBeCloseTo(screen.x, 9);
      expect(again.y).toBeCloseTo(screen.y, 9);
    }
  });

  it.each<[string, Viewport]>([
    ['scale 1 with a pan', { scale: 1, offsetX: 37, offsetY: -12.5 }],
    ['scale 2.7 with a pan', { scale: 2.7, offsetX: -143.25, offsetY: 61 }],
  ])('round-trips rects at %s', (_name, viewport) => {
    const rect = { x0: 10.5, y0: 20, x1: 300, y1: 410.25 };
    const screen = imageRectToScreen(rect, viewport);
    expect(screen.x0).toBeCloseTo(rect.x0 * viewport.scale + viewport.offsetX, 9);
    expect(screen.y1).toBeCloseTo(rect.y1 * viewport.scale + viewport.offsetY, 9);
    const back = screenRectToImage(screen, viewport);
    for (const key of ['x0', 'y0', 'x1', 'y1'] as const) expect(back[key]).toBeCloseTo(rect[key], 9);
  });
});
