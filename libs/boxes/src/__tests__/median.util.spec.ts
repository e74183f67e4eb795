import { median } from '../median.util';

describe('median', () => {
  it('takes the middle value of an odd count regardless of order', () => {
    expect(median([9, 1, 5])).toBe(5);
  });

  it('takes the mean of the two middle values of an even count', () => {
    expect(median([4, 1, 10, 2])).toBe(3);
  });

  it('does not mutate its input and throws on an empty list', () => {
    const values = [3, 1, 2];
    median(values);
    expect(values).toEqual([3, 1, 2]);
    expect(() => median([])).toThrow(RangeError);
  });
});
