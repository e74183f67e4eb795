import { box } from '../../store/__tests__/editor.fixtures';
import { drawOrder } from '../draw-order.util';

describe('drawOrder', () => {
  it('draws the larger boxes first, so a smaller box is on top where they overlap', () => {
    const face = box('face', 100, 100, 20, 30);
    const person = box('person', 100, 120, 80, 200);
    const car = box('car', 400, 300, 60, 40);
    expect(drawOrder([face, person, car])).toEqual([1, 2, 0]);
  });

  it('keeps the index order for equal areas, and for no boxes draws nothing', () => {
    expect(drawOrder([box('a', 10, 10, 20, 10), box('b', 50, 50, 10, 20), box('c', 90, 90, 5, 5)])).toEqual([0, 1, 2]);
    expect(drawOrder([])).toEqual([]);
  });
});
