import { describe, expect, it } from '@jest/globals';
import { boxesInImage, toSubmittedBoxes } from '../image-frame';

const box = (center_x: number, center_y: number, width: number, height: number) => ({ label: 'car', center_x, center_y, width, height });

describe('boxes and the image they were drawn on', () => {
  it('puts a draft drawn at one size on the same objects of the image loaded at another', () => {
    const drawn = [box(288, 224, 192, 194), box(900, 600, 40, 40)];
    expect(boxesInImage(drawn, { width: 960, height: 640 }, { width: 480, height: 320 })).toEqual([box(144, 112, 96, 97), box(450, 300, 20, 20)]);
    expect(boxesInImage([box(10, 10, 4, 4)], { width: 100, height: 100 }, { width: 300, height: 300 })).toEqual([box(30, 30, 12, 12)]);
  });

  it('leaves boxes as they are when the size is the same, or unknown (a draft saved before drafts kept it)', () => {
    const drawn = [box(288, 224, 192, 194)];
    expect(boxesInImage(drawn, { width: 960, height: 640 }, { width: 960, height: 640 })).toBe(drawn);
    expect(boxesInImage(drawn, undefined, { width: 480, height: 320 })).toBe(drawn);
  });

  it('sends only boxes that keep some area inside the image', () => {
    expect(toSubmittedBoxes([box(100, 100, 20, 20), box(700, 100, 20, 20)], { width: 480, height: 320 })).toEqual([box(100, 100, 20, 20)]);
  });
});
