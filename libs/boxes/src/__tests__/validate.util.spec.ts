import type { Box } from '../box.types';
import { boxInsideImage } from '../validate.util';

const image = { width: 100, height: 50 };
const box = (over: Partial<Box>): Box => ({ label: 'a', center_x: 50, center_y: 25, width: 10, height: 10, ...over });

describe('boxInsideImage', () => {
  it('accepts a box inside the image, including one covering all of it', () => {
    expect(boxInsideImage(box({}), image)).toBeNull();
    expect(boxInsideImage(box({ center_x: 50, center_y: 25, width: 100, height: 50 }), image)).toBeNull();
  });

  it('rejects zero or negative sizes', () => {
    expect(boxInsideImage(box({ width: 0 }), image)).toMatch(/width must be greater than 0/);
    expect(boxInsideImage(box({ height: -3 }), image)).toMatch(/height must be greater than 0/);
  });

  it('rejects non-finite and non-number fields', () => {
    expect(boxInsideImage(box({ center_x: Number.NaN }), image)).toMatch(/center_x must be a finite number/);
    expect(boxInsideImage(box({ height: Infinity }), image)).toMatch(/height must be a finite number/);
    expect(boxInsideImage(box({ width: '10' as unknown as number }), image)).toMatch(/width must be a finite number/);
  });

  it('rejects edges outside the image on every side', () => {
    expect(boxInsideImage(box({ center_x: 4 }), image)).toMatch(/left edge/);
    expect(boxInsideImage(box({ center_y: 4 }), image)).toMatch(/top edge/);
    expect(boxInsideImage(box({ center_x: 96 }), image)).toMatch(/right edge/);
    expect(boxInsideImage(box({ center_y: 46 }), image)).toMatch(/bottom edge/);
  });

  it('tolerates exactly the half-pixel overhang of an odd size, and no more', () => {
    expect(boxInsideImage(box({ center_x: 95, width: 11 }), image)).toBeNull(); // x1 = 100.5
    expect(boxInsideImage(box({ center_x: 95.1, width: 11 }), image)).toMatch(/right edge/); // x1 = 100.6
    expect(boxInsideImage(box({ center_x: 5, width: 11 }), image)).toBeNull(); // x0 = -0.5
  });

  it('rejects a box larger than the image even when centered', () => {
    expect(boxInsideImage(box({ center_x: 50, width: 101 }), image)).toMatch(/exceeds the image width/);
  });

  it('rejects an invalid image size', () => {
    expect(boxInsideImage(box({}), { width: 0, height: 50 })).toMatch(/image size/);
  });
});
