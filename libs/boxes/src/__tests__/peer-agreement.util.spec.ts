import type { Box } from '../box.types';
import type { Submission } from '../consensus.types';
import { peerAgreement } from '../peer-agreement.util';

const box = (label: string, center_x: number, center_y: number, width: number, height: number): Box => ({ label, center_x, center_y, width, height });
const sub = (worker: string, ...boxes: Box[]): Submission => ({ worker, boxes });
const car = box('car', 100, 80, 40, 30);
const farCar = box('car', 500, 400, 40, 30);

describe('peerAgreement', () => {
  it('compares nothing with fewer than two submissions', () => {
    expect(peerAgreement([])).toEqual([]);
    expect(peerAgreement([sub('a', car)])).toEqual([]);
  });

  it("compares each worker with the consensus of the others, not with one that holds the worker's own boxes", () => {
    // b and c drew the same car, a one far from it. The others' consensus for b is {a, c}: two workers,
    // so both their boxes are kept, and b's car matches c's.
    expect(peerAgreement([sub('a', farCar), sub('b', car), sub('c', { ...car })])).toEqual([
      { worker: 'a', boxes: 1, peerBoxes: 1, matched: 0 },
      { worker: 'b', boxes: 1, peerBoxes: 2, matched: 1 },
      { worker: 'c', boxes: 1, peerBoxes: 2, matched: 1 },
    ]);
  });

  it('pairs boxes one to one, of one label, at or above the threshold', () => {
    const nearCar = box('car', 104, 80, 40, 30); // IoU with `car` 0.818
    // Two boxes of a's on one box of b's: one pair. A person where b drew a car: none.
    expect(peerAgreement([sub('a', car, nearCar, box('person', 100, 80, 40, 30)), sub('b', car)])).toEqual([
      { worker: 'a', boxes: 3, peerBoxes: 1, matched: 1 },
      { worker: 'b', boxes: 1, peerBoxes: 3, matched: 1 },
    ]);
    expect(peerAgreement([sub('a', nearCar), sub('b', car)], { iouThreshold: 0.9 })[0].matched).toBe(0);
    expect(peerAgreement([sub('a', nearCar), sub('b', car)], { iouThreshold: 0.8 })[0].matched).toBe(1);
  });

  it('makes as many pairs as can be, not the closest first', () => {
    // a1 overlaps b2 most (IoU 0.905) and b1 too (0.6); a2 overlaps b2 only (0.667). The closest first
    // would pair a1 with b2 and leave a2 alone, though each of a's boxes has a box of b's.
    const [a1, a2] = [box('car', 120, 80, 40, 30), box('car', 130, 80, 40, 30)];
    const [b1, b2] = [box('car', 110, 80, 40, 30), box('car', 122, 80, 40, 30)];
    expect(peerAgreement([sub('a', a1, a2), sub('b', b1, b2)])).toEqual([
      { worker: 'a', boxes: 2, peerBoxes: 2, matched: 2 },
      { worker: 'b', boxes: 2, peerBoxes: 2, matched: 2 },
    ]);
  });

  it("compares in the task's frame a worker whose browser loaded the image at another size", () => {
    const frame = { width: 640, height: 480 };
    const twice: Submission = { worker: 'b', boxes: [box('car', 200, 160, 80, 60)], image: { width: 1280, height: 960 } };
    expect(peerAgreement([{ ...sub('a', car), image: frame }, twice], { frame })).toEqual([
      { worker: 'a', boxes: 1, peerBoxes: 1, matched: 1 },
      { worker: 'b', boxes: 1, peerBoxes: 1, matched: 1 },
    ]);
    // Without the frame, the two are compared as drawn and do not overlap enough.
    expect(peerAgreement([{ ...sub('a', car), image: frame }, twice])[0].matched).toBe(0);
  });

  it('counts empty submissions and leaves out boxes the consensus cannot place', () => {
    expect(peerAgreement([sub('a'), sub('b')])).toEqual([
      { worker: 'a', boxes: 0, peerBoxes: 0, matched: 0 },
      { worker: 'b', boxes: 0, peerBoxes: 0, matched: 0 },
    ]);
    expect(peerAgreement([sub('a', car, box('car', 10, 10, 0, 5)), sub('b', car)])[0]).toEqual({ worker: 'a', boxes: 1, peerBoxes: 1, matched: 1 });
  });
});
