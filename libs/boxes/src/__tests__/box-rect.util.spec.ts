import { boxToRect, rectToBox } from '../box-rect.util';

describe('boxToRect / rectToBox', () => {
  it('converts center/size to edges exactly', () => {
    expect(boxToRect({ label: 'a', center_x: 10, center_y: 20, width: 5, height: 8 })).toEqual({
      x0: 7.5,
      y0: 16,
      x1: 12.5,
      y1: 24,
    });
  });

  it('converts edges to center/size in the contract field order', () => {
    const box = rectToBox('dog', { x0: 0.5, y0: 1, x1: 3, y1: 5 });
    expect(box).toEqual({ label: 'dog', center_x: 1.75, center_y: 3, width: 2.5, height: 4 });
    expect(Object.keys(box)).toEqual(['label', 'center_x', 'center_y', 'width', 'height']);
  });

  it('round-trips', () => {
    const box = { label: 'x', center_x: 101, center_y: 57, width: 33, height: 12 };
    expect(rectToBox('x', boxToRect(box))).toEqual(box);
  });
});
