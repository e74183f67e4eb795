import { boxInsideImage } from '../validate.util';
import { boxInFrame, sameSize, scaleBox } from '../scale.util';

describe('scaleBox and boxInFrame', () => {
  const car = { label: 'car', center_x: 100, center_y: 50, width: 40, height: 20 };

  it('returns the very box when the sizes are equal', () => {
    expect(scaleBox(car, { width: 640, height: 480 }, { width: 640, height: 480 })).toBe(car);
  });

  it('scales center and size by the ratio of each axis', () => {
    expect(scaleBox(car, { width: 640, height: 480 }, { width: 1280, height: 960 })).toEqual({
      label: 'car',
      center_x: 200,
      center_y: 100,
      width: 80,
      height: 40,
    });
    // Different ratios per axis (a picture stretched on one axis) scale independently.
    expect(scaleBox(car, { width: 400, height: 200 }, { width: 200, height: 400 })).toEqual({
      label: 'car',
      center_x: 50,
      center_y: 100,
      width: 20,
      height: 40,
    });
  });

  it('keeps a box touching the far edges inside the other frame once clamped and rounded', () => {
    // Edges 590..640 and 440..480 of a 640x480 image, put into a 1000x750 one: 921.875..1000.
    const edge = { label: 'car', center_x: 615, center_y: 460, width: 50, height: 40 };
    const frame = { width: 1000, height: 750 };
    const scaled = boxInFrame(edge, { width: 640, height: 480 }, frame);
    expect(boxInsideImage(scaled, frame)).toBeNull();
  });

  it('boxInFrame gives the very box at the same size, and an integer box clamped to the other size', () => {
    const size = { width: 640, height: 480 };
    expect(boxInFrame(car, size, { ...size })).toBe(car);
    // Edges 317.5..320.5 of a 320 px copy (its half-pixel slack) are 1270..1280 in a 1280 px frame, not 1282.
    const atEdge = { label: 'car', center_x: 319, center_y: 120, width: 3, height: 4 };
    expect(boxInFrame(atEdge, { width: 320, height: 240 }, { width: 1280, height: 960 })).toEqual({ label: 'car', center_x: 1275, center_y: 480, width: 10, height: 16 });
  });

  it('boxInFrame keeps a box scaled down to under a pixel 1 px wide and high, inside the frame', () => {
    const frame = { width: 64, height: 64 };
    const tiny = { label: 'car', center_x: 2000, center_y: 2000, width: 1, height: 1 };
    const scaled = boxInFrame(tiny, { width: 4000, height: 4000 }, frame);
    expect(scaled).toEqual({ label: 'car', center_x: 32, center_y: 32, width: 1, height: 1 });
    expect(boxInsideImage(scaled, frame)).toBeNull();
  });

  it('compares sizes by both dimensions', () => {
    expect(sameSize({ width: 1, height: 2 }, { width: 1, height: 2 })).toBe(true);
    expect(sameSize({ width: 1, height: 2 }, { width: 2, height: 1 })).toBe(false);
  });
});
