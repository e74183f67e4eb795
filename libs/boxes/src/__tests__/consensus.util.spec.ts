import { boxToRect, rectToBox } from '../box-rect.util';
import type { Box } from '../box.types';
import { clampBox } from '../clamp.util';
import type { Submission } from '../consensus.types';
import { consensus } from '../consensus.util';
import { iou } from '../iou.util';
import { boxInsideImage } from '../validate.util';

const box = (label: string, center_x: number, center_y: number, width: number, height: number): Box => ({
  label,
  center_x,
  center_y,
  width,
  height,
});
const fromEdges = (label: string, x0: number, y0: number, x1: number, y1: number): Box =>
  rectToBox(label, { x0, y0, x1, y1 });
const sub = (worker: string, ...boxes: Box[]): Submission => ({ worker, boxes });

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

describe('consensus', () => {
  it('merges identical boxes from 3 workers into that box with full agreement', () => {
    const car = box('car', 100, 80, 40, 30);
    expect(consensus([sub('a', car), sub('b', { ...car }), sub('c', { ...car })])).toEqual([
      { label: 'car', center_x: 100, center_y: 80, width: 40, height: 30, support: 3, agreement: 1 },
    ]);
  });

  it('merges boxes jittered by a few pixels into one box made of the per-edge medians', () => {
    const a = fromEdges('car', 100, 54, 196, 150);
    const b = fromEdges('car', 104, 50, 200, 146);
    const c = fromEdges('car', 98, 46, 206, 152);
    const [merged] = consensus([sub('a', a), sub('b', b), sub('c', c)]);
    // Medians: x0 of {98,100,104} = 100, y0 of {46,50,54} = 50, x1 of {196,200,206} = 200,
    // y1 of {146,150,152} = 150 — taken from different workers, and not the mean (x0 mean 100.67).
    expect(boxToRect(merged)).toEqual({ x0: 100, y0: 50, x1: 200, y1: 150 });
    expect(merged.support).toBe(3);
    const expected = Math.round(((iou(a, b) + iou(a, c) + iou(b, c)) / 3) * 1000) / 1000;
    expect(merged.agreement).toBe(expected);
    expect(merged.agreement).toBeGreaterThan(0.8);
    expect(merged.agreement).toBeLessThan(1);
  });

  it('uses the mean of the two middle edges for an even count, then rounds center and size half away from zero', () => {
    // x0 median (0 + 1) / 2 = 0.5, x1 median (10 + 12) / 2 = 11: center 5.75 → 6, width 10.5 → 11.
    const out = consensus([sub('a', fromEdges('car', 0, 0, 10, 10)), sub('b', fromEdges('car', 1, 0, 12, 10))]);
    expect(out).toEqual([{ label: 'car', center_x: 6, center_y: 5, width: 11, height: 10, support: 2, agreement: 0.75 }]);
  });

  it('drops a lone box drawn by 1 of 3 workers', () => {
    const car = box('car', 100, 80, 40, 30);
    const lone = box('car', 400, 300, 20, 20);
    const out = consensus([sub('a', car), sub('b', car, lone), sub('c')]);
    expect(out).toEqual([{ ...car, support: 2, agreement: 1 }]);
  });

  it('keeps two objects of one label apart', () => {
    const left = box('person', 100, 200, 50, 120);
    const right = box('person', 300, 190, 50, 120);
    const out = consensus([sub('a', left, right), sub('b', right, left), sub('c', left, right)]);
    expect(out).toEqual([
      { ...right, support: 3, agreement: 1 }, // center_y 190 sorts first
      { ...left, support: 3, agreement: 1 },
    ]);
  });

  it('never merges different labels, even when the boxes coincide exactly', () => {
    const cat = box('cat', 50, 50, 20, 20);
    const dog = { ...cat, label: 'dog' };
    const out = consensus([sub('a', cat), sub('b', cat), sub('c', dog), sub('d', dog)]);
    expect(out).toEqual([
      { ...cat, support: 2, agreement: 1 },
      { ...dog, support: 2, agreement: 1 },
    ]);
  });

  it('keeps every box when there is a single worker (k = 1), each with support 1', () => {
    const boxes = [box('car', 10, 10, 10, 10), box('car', 11, 10, 10, 10), box('bike', 50, 5, 4, 4)];
    const out = consensus([sub('solo', ...boxes)]);
    expect(out).toEqual([
      { ...boxes[2], support: 1, agreement: 1 },
      { ...boxes[0], support: 1, agreement: 1 },
      { ...boxes[1], support: 1, agreement: 1 },
    ]);
    // No two boxes are ever compared, so the threshold does not enter: the API stores a one-submission
    // task's consensus before it reads the project's threshold (soloConsensusText).
    for (const iouThreshold of [0.01, 0.5, 1]) expect(consensus([sub('solo', ...boxes)], { iouThreshold })).toEqual(out);
  });

  it('returns [] when there are no submissions or all workers drew nothing', () => {
    expect(consensus([])).toEqual([]);
    expect(consensus([sub('a'), sub('b'), sub('c')])).toEqual([]);
  });

  it('keeps a box drawn by 2 of 3 workers when the third drew nothing (ceil(3/2) = 2)', () => {
    const car = box('car', 100, 80, 40, 30);
    expect(consensus([sub('a', car), sub('b'), sub('c', car)])).toEqual([{ ...car, support: 2, agreement: 1 }]);
    // The empty submission still counts towards k: with 4 workers (two empty) 2 boxes are still enough,
    // with 5 workers they are not.
    expect(consensus([sub('a', car), sub('b'), sub('c', car), sub('d')])).toHaveLength(1);
    expect(consensus([sub('a', car), sub('b'), sub('c', car), sub('d'), sub('e')])).toEqual([]);
  });

  it('merges boxes touching the image edges and keeps the result in range', () => {
    const image = { width: 640, height: 480 };
    // Stored boxes are clamped and rounded, like the API would store them.
    const stored = (x0: number, y0: number, x1: number, y1: number): Box =>
      clampBox(fromEdges('tree', x0, y0, x1, y1), image);
    const out = consensus([
      sub('a', stored(0, 0, 60, 100), stored(539, 380, 640, 480)),
      sub('b', stored(-5, 0, 62, 98), stored(541, 379, 650, 480)),
      sub('c', stored(0, 2, 58, 100), stored(539, 381, 640, 490)),
    ]);
    expect(out.map(({ support }) => support)).toEqual([3, 3]);
    const [topLeft, bottomRight] = out;
    expect(boxToRect(topLeft)).toEqual({ x0: 0, y0: 0, x1: 60, y1: 100 });
    // Odd sizes flush with the right/bottom edge: the stored inputs already read back as ending at
    // 640.5 / 480.5 (an integer center cannot express 589.5), and so does the median: x edges
    // 539.5..640.5 → center 590, width 101; y edges median 380..480.5 → center 430.25 → 430,
    // height 100.5 → 101. That half pixel is exactly what validation tolerates.
    expect(bottomRight).toMatchObject({ center_x: 590, width: 101, center_y: 430, height: 101 });
    for (const b of out) {
      expect(boxInsideImage(b, image)).toBeNull();
      expect(b.center_x).toBeLessThanOrEqual(image.width);
      expect(b.center_y).toBeLessThanOrEqual(image.height);
    }
  });

  it('gives a box equally close to two clusters to the earlier-created cluster', () => {
    const left = fromEdges('car', 0, 0, 10, 10);
    const right = fromEdges('car', 10, 0, 20, 10);
    const middle = fromEdges('car', 5, 0, 15, 10); // IoU 1/3 with both
    expect(iou(middle, left)).toBe(iou(middle, right));

    // Worker "w1" is processed first, so left's cluster is the earlier one.
    const out = consensus([sub('w3', middle), sub('w2', right), sub('w1', left)], { iouThreshold: 0.3 });
    expect(out).toEqual([{ label: 'car', center_x: 8, center_y: 5, width: 10, height: 10, support: 2, agreement: 0.333 }]);

    // Rename the owner of "right" so it sorts first: now its cluster is the earlier one.
    const swapped = consensus([sub('w3', middle), sub('w0', right), sub('w1', left)], { iouThreshold: 0.3 });
    expect(swapped).toEqual([
      { label: 'car', center_x: 13, center_y: 5, width: 10, height: 10, support: 2, agreement: 0.333 },
    ]);

    // Within one worker, boxes are ordered by x0, so the left box's cluster is created first.
    const sameWorker = consensus([sub('b', middle), sub('a', right, left)], { iouThreshold: 0.3 });
    expect(sameWorker).toEqual([
      { label: 'car', center_x: 8, center_y: 5, width: 10, height: 10, support: 2, agreement: 0.333 },
      { label: 'car', center_x: 15, center_y: 5, width: 10, height: 10, support: 1, agreement: 1 },
    ]);
  });

  it('gives identical output for every permutation of submissions and of boxes within them', () => {
    const submissions = [
      sub('carol', box('car', 100, 100, 40, 40), box('dog', 300, 50, 30, 20), box('car', 118, 100, 40, 40)),
      sub('alice', box('car', 110, 101, 40, 40), box('dog', 302, 52, 30, 22), box('cat', 20, 20, 5, 5)),
      sub('bob', box('car', 105, 99, 42, 40), box('car', 400, 400, 10, 10), box('dog', 298, 49, 28, 20)),
    ];
    const reference = consensus(submissions, { iouThreshold: 0.4 });
    expect(reference.length).toBeGreaterThan(1);
    for (const order of permutations(submissions)) {
      for (const reverseBoxes of [false, true]) {
        const input = order.map((s) => ({ worker: s.worker, boxes: reverseBoxes ? [...s.boxes].reverse() : s.boxes }));
        expect(consensus(input, { iouThreshold: 0.4 })).toEqual(reference);
      }
    }
  });

  it("never puts one worker's two overlapping boxes in the same cluster", () => {
    const a1 = box('car', 100, 100, 40, 40);
    const a2 = box('car', 102, 100, 40, 40); // IoU ≈ 0.9 with a1
    // Merged they would have support 2 >= ceil(3/2) and survive; kept apart each has support 1.
    expect(consensus([sub('a', a1, a2), sub('b'), sub('c')])).toEqual([]);
    // With a second worker, that worker's box joins only one of them.
    const out = consensus([sub('a', a1, a2), sub('b', box('car', 101, 100, 40, 40))]);
    expect(out.map(({ support }) => support).sort()).toEqual([1, 2]);
  });

  it('respects the iouThreshold option (at or above the threshold merges)', () => {
    const a = fromEdges('car', 0, 0, 10, 10);
    const b = fromEdges('car', 0, 0, 10, 6); // IoU 0.6
    expect(iou(a, b)).toBeCloseTo(0.6, 12);
    const input = [sub('a', a), sub('b', b)];
    expect(consensus(input)).toHaveLength(1); // default 0.5
    expect(consensus(input, { iouThreshold: 0.6 })).toHaveLength(1);
    const split = consensus(input, { iouThreshold: 0.7 });
    expect(split.map(({ support }) => support)).toEqual([1, 1]);
  });

  it('rejects thresholds outside (0, 1] and duplicate worker ids', () => {
    const input = [sub('a', box('car', 1, 1, 2, 2))];
    for (const iouThreshold of [0, -0.1, 1.5, Number.NaN]) {
      expect(() => consensus(input, { iouThreshold })).toThrow(RangeError);
    }
    expect(() => consensus([sub('a'), sub('a')])).toThrow(/duplicate submission/);
  });

  it('skips degenerate boxes but still counts their worker in k', () => {
    const car = box('car', 100, 80, 40, 30);
    const out = consensus([sub('a', car, box('car', 5, 5, 0, 10)), sub('b', box('car', Number.NaN, 5, 5, 5)), sub('c', car)]);
    expect(out).toEqual([{ ...car, support: 2, agreement: 1 }]);
  });

  it('does not merge boxes whose IoU overflowed to NaN: huge boxes merge by their real overlap', () => {
    // 0..1e200 on both axes, and the same with a tenth of its height: IoU 0.1, computed as
    // Infinity / NaN (NaN), which passed as at or above any threshold, so the box joined the first cluster.
    const whole = fromEdges('car', 0, 0, 1e200, 1e200);
    const tenth = fromEdges('car', 0, 0, 1e200, 1e199);
    expect(consensus([sub('a', whole), sub('b', tenth)]).map((b) => b.support)).toEqual([1, 1]);
    // The same huge box twice: IoU 1, merged, with an agreement of 1 (it was NaN, null in JSON).
    expect(consensus([sub('a', whole), sub('b', { ...whole })]).map((b) => [b.support, b.agreement])).toEqual([[2, 1]]);
  });

  it('orders coinciding merged boxes by support, the larger first', () => {
    const car = box('car', 100, 80, 40, 30);
    // Worker a drew the car twice; b's box joins the earlier of a's clusters. k = 2 keeps both clusters.
    const out = consensus([sub('a', car, { ...car }), sub('b', { ...car })]);
    expect(out).toEqual([
      { ...car, support: 2, agreement: 1 },
      { ...car, support: 1, agreement: 1 },
    ]);
  });

  it('returns fields in the contract order', () => {
    const [out] = consensus([sub('a', box('car', 1, 1, 2, 2))]);
    expect(Object.keys(out)).toEqual(['label', 'center_x', 'center_y', 'width', 'height', 'support', 'agreement']);
  });
});

describe('consensus in a frame: the merged box is clamped like a stored box', () => {
  const image = { width: 10, height: 10 };
  const stored = (x0: number, y0: number, x1: number, y1: number): Box => clampBox(fromEdges('car', x0, y0, x1, y1), image);

  it('keeps two boxes reaching the edge inside the image (rounding center and size alone put it a pixel past)', () => {
    // Edges 0..10 and 1.5..10.5 (both valid as stored): medians 0.75..10.25. Rounded without a clamp:
    // center 6, width 10, i.e. 1..11, past the image and past both workers' boxes.
    const subs: Submission[] = [
      { worker: 'a', boxes: [box('car', 5, 5, 10, 10)], image },
      { worker: 'b', boxes: [box('car', 6, 5, 9, 10)], image },
    ];
    const [merged] = consensus(subs, { frame: image });
    expect(boxInsideImage(merged, image)).toBeNull();
    expect(merged).toMatchObject({ center_x: 5, width: 9, support: 2 });
    expect(consensus(subs)[0]).toMatchObject({ center_x: 6, width: 10 });
  });

  it('gives boxes inside the frame for any stored boxes near its edges, and a lone stored box back as it is', () => {
    let seed = 7;
    let checked = 0;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const edge = (size: number) => (random() < 0.5 ? random() * 3 : size - random() * 3);
    for (let run = 0; run < 3000; run++) {
      const frame = { width: 5 + Math.floor(random() * 200), height: 5 + Math.floor(random() * 200) };
      const workers = 1 + Math.floor(random() * 4);
      const subs: Submission[] = Array.from({ length: workers }, (_, w) => {
        const x0 = random() * frame.width * 0.6 - 1;
        const y0 = random() * frame.height * 0.6 - 1;
        return { worker: `w${w}`, boxes: [clampBox(fromEdges('car', x0, y0, edge(frame.width) + 1, edge(frame.height) + 1), frame)], image: frame };
      });
      // Only what submit accepts (a box collapsed onto an edge is refused there).
      if (subs.some((sub) => sub.boxes.some((b) => boxInsideImage(b, frame) !== null))) continue;
      checked++;
      for (const merged of consensus(subs, { iouThreshold: 0.1, frame })) expect(boxInsideImage(merged, frame)).toBeNull();
      // A task of one submission stores its box as the consensus (the SUBMIT's solo text): the rule must agree.
      const [only] = subs[0].boxes;
      expect(consensus([subs[0]], { frame })[0]).toMatchObject({ center_x: only.center_x, center_y: only.center_y, width: only.width, height: only.height });
    }
    expect(checked).toBeGreaterThan(2000);
    expect(stored(0, 0, 10, 10)).toMatchObject({ center_x: 5, width: 10 });
  });
});

describe('consensus across image sizes (options.frame)', () => {
  const small = { width: 640, height: 480 };
  const large = { width: 1280, height: 960 };
  const onSmall = box('car', 100, 80, 40, 30);
  const onLarge = box('car', 200, 160, 80, 60);

  it('scales each submission into the frame, so one object drawn on two sizes merges', () => {
    const subs: Submission[] = [
      { worker: 'a', boxes: [onSmall], image: small },
      { worker: 'b', boxes: [onLarge], image: large },
      { worker: 'c', boxes: [{ ...onSmall }], image: small },
    ];
    expect(consensus(subs, { frame: small })).toEqual([{ ...onSmall, support: 3, agreement: 1 }]);
    // The result is in the frame's pixels, whichever frame is asked for.
    expect(consensus(subs, { frame: large })).toEqual([{ ...onLarge, support: 3, agreement: 1 }]);
  });

  it('without a frame, compares the numbers as drawn (the boxes then do not overlap enough)', () => {
    const subs: Submission[] = [
      { worker: 'a', boxes: [onSmall], image: small },
      { worker: 'b', boxes: [onLarge], image: large },
      { worker: 'c', boxes: [{ ...onLarge }], image: large },
    ];
    expect(consensus(subs)).toEqual([{ ...onLarge, support: 2, agreement: 1 }]);
    expect(consensus(subs, { frame: small })).toEqual([{ ...onSmall, support: 3, agreement: 1 }]);
  });

  it('keeps a box scaled up from a smaller copy inside the frame', () => {
    const frame = { width: 1280, height: 960 };
    // Valid on its 320x240 copy: edges 317.5..320.5, half a pixel past the edge (EDGE_ROUNDING_SLACK).
    // Scaled by 4 unclamped, that is 1270..1282: 2 px past the frame.
    const atEdge = box('car', 319, 120, 3, 4);
    const [merged] = consensus([{ worker: 'a', boxes: [], image: frame }, { worker: 'b', boxes: [atEdge], image: { width: 320, height: 240 } }], { frame });
    expect(boxInsideImage(merged, frame)).toBeNull();
    expect(merged).toEqual({ label: 'car', center_x: 1275, center_y: 480, width: 10, height: 16, support: 1, agreement: 1 });
  });

  it('does not depend on the order of the submissions', () => {
    const subs: Submission[] = [
      { worker: 'a', boxes: [fromEdges('car', 10, 10, 51, 33)], image: small },
      { worker: 'b', boxes: [fromEdges('car', 21, 19, 100, 70)], image: large },
      { worker: 'c', boxes: [fromEdges('car', 33, 31, 99, 64)], image: { width: 960, height: 720 } },
    ];
    const expected = consensus(subs, { frame: small });
    expect(expected).toHaveLength(1);
    for (const order of permutations(subs)) expect(consensus(order, { frame: small })).toEqual(expected);
  });

  it('keeps a box scaled down into a smaller frame at least 1 px wide and high, inside the frame', () => {
    const frame = { width: 64, height: 64 };
    // 1 px on a 4000 px copy is 0.016 px in the 64 px frame (31.992..32.008): rounded alone, width 0.
    const subs: Submission[] = [
      { worker: 'a', boxes: [], image: frame },
      { worker: 'b', boxes: [box('car', 2000, 2000, 1, 1)], image: { width: 4000, height: 4000 } },
    ];
    const merged = consensus(subs, { frame });
    expect(merged).toEqual([{ label: 'car', center_x: 32, center_y: 32, width: 1, height: 1, support: 1, agreement: 1 }]);
    expect(boxInsideImage(merged[0], frame)).toBeNull();
    // At the frame's corner the widened box's center moves inside, so it adds no overhang.
    const corner = consensus([subs[0], { ...subs[1], boxes: [box('car', 3999.5, 0.5, 1, 1)] }], { frame });
    expect(corner).toEqual([{ label: 'car', center_x: 63, center_y: 1, width: 1, height: 1, support: 1, agreement: 1 }]);
  });

  it('gives the same support whichever submission is first, for boxes at the edge (the frame\'s own are clamped too)', () => {
    // The same 1 px strip at the right edge, on a 10 px and a 20 px copy, each valid with its half pixel
    // outside (EDGE_ROUNDING_SLACK). Clamping only the scaled box gave IoU 0.25 in the 10 px frame
    // (9.5..10.5 against 9.75..10) and 1/3 in the 20 px one (19.5..20.5 against 19..20); clamped both,
    // 0.5 in either.
    const subs: Submission[] = [
      { worker: 'a', boxes: [box('car', 10, 5, 1, 10)], image: { width: 10, height: 10 } },
      { worker: 'b', boxes: [box('car', 20, 10, 1, 20)], image: { width: 20, height: 20 } },
    ];
    const supports = (first: Submission, second: Submission) =>
      consensus([first, second], { frame: first.image, iouThreshold: 0.5 }).map((b) => b.support);
    expect(supports(subs[0], subs[1])).toEqual([2]);
    expect(supports(subs[1], subs[0])).toEqual([2]);
  });
});
