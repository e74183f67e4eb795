import { boxInsideImage } from '../validate.util';
import { clampBox } from '../clamp.util';
import { sameSize, scaleBox } from '../scale.util';

describe('scaleBox', () => {
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
    const scaled = clampBox(scaleBox(edge, { width: 640, height: 480 }, frame), frame);
    expect(boxInsideImage(scaled, frame)).toBeNull();
  });

  it('compares sizes by both dimensions', () => {
    expect(sameSize({ width: 1, height: 2 }, { width: 1, height: 2 })).toBe(true);
    expect(sameSize({ width: 1, height: 2 }, { width: 2, height: 1 })).toBe(false);
  });
});
