import { fitToScreen } from '../fit.util';
import { imageToScreen } from '../transform.util';

describe('fitToScreen', () => {
  it('fits a wide image to the stage width and centers it vertically', () => {
    const v = fitToScreen({ width: 1000, height: 500 }, { width: 800, height: 600 }, 0);
    expect(v).toEqual({ scale: 0.8, offsetX: 0, offsetY: 100 });
  });

  it('respects padding on every side and centers the image', () => {
    const image = { width: 400, height: 400 };
    const v = fitToScreen(image, { width: 800, height: 600 }, 20);
    expect(v.scale).toBeCloseTo(560 / 400, 12);
    const topLeft = imageToScreen({ x: 0, y: 0 }, v);
    const bottomRight = imageToScreen({ x: image.width, y: image.height }, v);
    expect(topLeft.y).toBeCloseTo(20, 9);
    expect(bottomRight.y).toBeCloseTo(580, 9);
    expect(topLeft.x).toBeCloseTo(800 - bottomRight.x, 9);
  });

  it('scales small images up to fill the stage', () => {
    expect(fitToScreen({ width: 100, height: 50 }, { width: 400, height: 400 }).scale).toBe(4);
  });

  it('drops the padding when the stage is too small for it', () => {
    expect(fitToScreen({ width: 10, height: 10 }, { width: 30, height: 30 }, 20).scale).toBe(3);
  });

  it('throws on zero-sized image or stage instead of returning Infinity', () => {
    expect(() => fitToScreen({ width: 0, height: 10 }, { width: 30, height: 30 })).toThrow(RangeError);
    expect(() => fitToScreen({ width: 10, height: 10 }, { width: 0, height: 30 })).toThrow(RangeError);
  });
});
