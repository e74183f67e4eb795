import fc from 'fast-check';
import { rectToBox } from '../box-rect.util';
import type { Box, ImageSize } from '../box.types';
import type { Submission } from '../consensus.types';
import { consensus, consensusWithCost, type ConsensusCost } from '../consensus.util';
import { roundBox } from '../round.util';
import { referenceConsensus } from './consensus.reference';

/**
 * The consensus finds candidate clusters through a grid (LabelClusters) instead of comparing each box
 * with every cluster. These check that no result changed, against the rule as it was written
 * (consensus.reference.ts), and that the work on adversarial inputs is what the grid and
 * LIMITS.boxesPerTask (4,000) promise. Work is counted in IoUs, not timed: bench/consensus-cost.mjs times it.
 */

const worker = (w: number) => `w${String(w).padStart(3, '0')}`;
const FRAME = { width: 100_000, height: 100_000 };

/** Both ways the current code can run, the grid forced from the first box and the default, against the reference. */
function expectSameAsReference(subs: Submission[], options: { iouThreshold?: number; frame?: ImageSize } = {}) {
  const expected = referenceConsensus(subs, options);
  expect(consensusWithCost(subs, options, undefined, 0)).toEqual(expected);
  expect(consensus(subs, options)).toEqual(expected);
  return expected;
}

/**
 * 250 far-away boxes of a worker sorted first: the task's own boxes then meet few of the members in
 * their grid cells, so LabelClusters takes its candidates from the grid rather than scanning every cluster.
 */
const filler: Submission = {
  worker: '!filler',
  boxes: Array.from({ length: 250 }, (_, i) => ({ label: 'car', center_x: 1000 + (i % 25) * 20, center_y: 1000 + Math.floor(i / 25) * 20, width: 10, height: 10 })),
};

/** expectSameAsReference, once as given and once among the filler's boxes; the result as given. */
function expectSameAsReferenceThroughGrid(subs: Submission[], options: { iouThreshold?: number; frame?: ImageSize } = {}) {
  expectSameAsReference([filler, ...subs], options);
  return expectSameAsReference(subs, options);
}

describe('consensus with candidate clusters found through a grid: the same results as comparing every box', () => {
  const sizes: ImageSize[] = [
    { width: 40, height: 40 },
    { width: 80, height: 80 },
    { width: 20, height: 40 },
  ];
  /** Coordinates on a small integer grid (with halves), so that boxes coincide, touch, nest and tie. */
  const coordinate = fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 80 }).map((v) => v / 2));
  const normalBox = fc.record({
    label: fc.constantFrom('car', 'car', 'cat', 'Car'),
    center_x: coordinate,
    center_y: coordinate,
    width: fc.integer({ min: 1, max: 30 }),
    height: fc.integer({ min: 1, max: 30 }),
  });
  /** What the rule must also survive: boxes it skips, boxes off every frame, edges so large that IoUs are NaN. */
  const oddBox = fc.oneof(
    fc.record({ label: fc.constant('car'), center_x: coordinate, center_y: coordinate, width: fc.constantFrom(0, -3, Number.NaN), height: fc.constant(4) }),
    fc.record({ label: fc.constant('car'), center_x: fc.constantFrom(-50, 500), center_y: coordinate, width: fc.constant(6), height: fc.constant(6) }),
    fc.record({
      label: fc.constant('car'),
      center_x: fc.constantFrom(1e200, 1.5e308),
      center_y: fc.constantFrom(0, 1e200),
      width: fc.constantFrom(1e200, 1e308),
      height: fc.constantFrom(1e200, 4),
    }),
  );
  const box = fc.oneof({ weight: 30, arbitrary: normalBox }, { weight: 1, arbitrary: oddBox }) as fc.Arbitrary<Box>;
  const submissions = fc
    .uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'B', 'w10', 'w9'), { minLength: 1, maxLength: 7 })
    .chain((workers) =>
      fc.tuple(
        ...workers.map((w) =>
          fc.record({ worker: fc.constant(w), boxes: fc.array(box, { maxLength: 14 }), image: fc.option(fc.constantFrom(...sizes), { nil: undefined }) }),
        ),
      ),
    );
  const options = fc.record({
    // 1e-10: a threshold a mean of zeros passes (within the tie tolerance), where nothing may be pruned.
    iouThreshold: fc.constantFrom(0.5, 0.3, 1 / 3, 0.1, 0.75, 1, 1e-10),
    frame: fc.option(fc.constantFrom(...sizes), { nil: undefined }),
  });

  it('on many small random tasks, ties and odd boxes included', () => {
    fc.assert(
      fc.property(submissions, options, (subs, opts) => {
        expectSameAsReference(subs.map((s) => (s.image === undefined ? { worker: s.worker, boxes: s.boxes } : s)), opts);
      }),
      { numRuns: 1500 },
    );
  });

  it('on crowded random tasks, where a box often ties between clusters or nearly so', () => {
    // Boxes on a 0.5 px lattice in a 12 px square, many workers, low thresholds: equal IoUs, means that
    // are equal but for the last bit (0.1 + 0.2), and boxes with several candidate clusters.
    const crowded = fc.record({
      label: fc.constant('car'),
      center_x: fc.integer({ min: 0, max: 24 }).map((v) => v / 2),
      center_y: fc.integer({ min: 0, max: 24 }).map((v) => v / 2),
      width: fc.constantFrom(1, 1.5, 2, 3, 4, 10),
      height: fc.constantFrom(1, 1.5, 2, 3, 4, 10),
    });
    const crowdedTasks = fc.integer({ min: 2, max: 9 }).chain((workers) =>
      fc.tuple(...Array.from({ length: workers }, (_, w) => fc.record({ worker: fc.constant(worker(w)), boxes: fc.array(crowded, { maxLength: 6 }) }))),
    );
    fc.assert(
      fc.property(crowdedTasks, fc.constantFrom(0.1, 0.15, 0.2, 0.25, 1 / 3, 0.5), (subs, iouThreshold) => {
        expectSameAsReferenceThroughGrid(subs, { iouThreshold });
      }),
      { numRuns: 1500 },
    );
  });

  it.each([1, 10])('gives a box equally close to two clusters to the earlier-created one (boxes x%d)', (scale) => {
    // x10, the boxes span several grid cells, and the later cluster's box lies in the first cell the
    // middle box's query visits: its candidates must still be taken in creation order.
    const edges = (x0: number, x1: number): Box => rectToBox('car', { x0: x0 * scale, y0: 0, x1: x1 * scale, y1: 10 * scale });
    const [left, right, middle] = [edges(0, 10), edges(10, 20), edges(5, 15)]; // IoU 1/3 with both
    const merged = (x0: number) => ({ ...roundBox(edges(x0, x0 + 10)), support: 2, agreement: 0.333 });
    const leftFirst = [
      { worker: 'w3', boxes: [middle] },
      { worker: 'w2', boxes: [right] },
      { worker: 'w1', boxes: [left] },
    ];
    expect(expectSameAsReferenceThroughGrid(leftFirst, { iouThreshold: 0.3 })).toEqual([merged(2.5)]);
    const rightFirst = [
      { worker: 'w3', boxes: [middle] },
      { worker: 'w0', boxes: [right] },
      { worker: 'w1', boxes: [left] },
    ];
    expect(expectSameAsReferenceThroughGrid(rightFirst, { iouThreshold: 0.3 })).toEqual([merged(7.5)]);
  });

  it('treats means within 1e-9 as equal: a later cluster whose mean is higher only in the last bits does not win', () => {
    // Strips 10 px wide from the top, so an IoU is the ratio of two heights. The strip of height 3 (w3)
    // has a mean IoU of 5/12 with both the cluster {2, 0.5} and the later {8, 6, 8}: (2/3 + 1/6) / 2 and
    // (3/8 + 1/2 + 3/8) / 3, computed as 0.41666666666666663 and 0.4166666666666667. It joins the first.
    const strip = (h: number): Box => ({ label: 'car', center_x: 5, center_y: h / 2, width: 10, height: h });
    const subs: Submission[] = [
      { worker: 'w0', boxes: [strip(8), strip(2)] },
      { worker: 'w1', boxes: [strip(6), strip(0.5)] },
      { worker: 'w2', boxes: [strip(8), strip(9.5)] },
      { worker: 'w3', boxes: [strip(3)] },
    ];
    expect(expectSameAsReferenceThroughGrid(subs, { iouThreshold: 0.15 })).toEqual([
      { label: 'car', center_x: 5, center_y: 1, width: 10, height: 2, support: 3, agreement: 0.361 },
      { label: 'car', center_x: 5, center_y: 4, width: 10, height: 8, support: 3, agreement: 0.833 },
    ]);
  });

  it('with edges so large that areas overflow (NaN IoUs) or are infinite', () => {
    const big = (center_x: number, width: number): Box => ({ label: 'car', center_x, center_y: 5, width, height: 10 });
    const tasks: Submission[][] = [
      [
        { worker: 'a', boxes: [big(1.5e308, 1e308), big(1e200, 1e200), big(5, 4)] },
        { worker: 'b', boxes: [big(1.5e308, 1e308), big(1.2e200, 1e200), big(6, 4)] },
        { worker: 'c', boxes: [big(1.6e308, 1e308), big(5, 4), big(1e200, 1e200)] },
      ],
      [
        { worker: 'a', boxes: [big(-1.5e308, 1e308), big(5, 4)] },
        { worker: 'b', boxes: [big(5, 4), big(-1.7e308, 1e308)] },
      ],
    ];
    for (const subs of tasks) for (const iouThreshold of [0.5, 0.1, 1e-10]) expectSameAsReference(subs, { iouThreshold });
  });

  it('on random tasks of a few hundred boxes in one label, where the grid is used by default', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 12 }), fc.integer({ min: 1, max: 1_000_000 }), fc.constantFrom(0.5, 0.3, 0.7), (workers, seed, iouThreshold) => {
        let state = seed;
        const random = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
        // Objects on a 1,000 px image, each drawn by most workers with a few pixels of jitter, and strays.
        const objects = Array.from({ length: 40 }, () => ({ x: 20 + random() * 960, y: 20 + random() * 960, w: 8 + random() * 80, h: 8 + random() * 80 }));
        const subs: Submission[] = Array.from({ length: workers }, (_, w) => ({
          worker: worker(w),
          boxes: objects
            .filter(() => random() < 0.8)
            .map((o) => ({
              label: 'car',
              center_x: Math.round(o.x + random() * 8 - 4),
              center_y: Math.round(o.y + random() * 8 - 4),
              width: Math.round(o.w + random() * 6 - 3),
              height: Math.round(o.h + random() * 6 - 3),
            }))
            .concat(random() < 0.5 ? [{ label: 'car', center_x: Math.round(random() * 1000), center_y: Math.round(random() * 1000), width: 30, height: 30 }] : []),
        }));
        expectSameAsReference(subs, { iouThreshold });
      }),
      { numRuns: 40 },
    );
  });
});

describe('consensus on adversarial tasks', () => {
  jest.setTimeout(120_000);

  /** The security review's input: 500 small boxes per worker, shifted per worker so that none reach the threshold together. */
  const nonOverlapping = (workers: number): Submission[] =>
    Array.from({ length: workers }, (_, w) => ({
      worker: worker(w),
      image: FRAME,
      boxes: Array.from({ length: 500 }, (_, i) => ({
        label: 'car',
        center_x: 50 + (i % 50) * 200 + w,
        center_y: 50 + Math.floor(i / 50) * 200 + w * 150,
        width: 10,
        height: 10,
      })),
    }));

  it('30 x 500 non-overlapping boxes (beyond the cap: stored before it): the same result, with IoUs only where boxes overlap', () => {
    const subs = nonOverlapping(30);
    const cost: ConsensusCost = { ious: 0 };
    const result = consensusWithCost(subs, { frame: FRAME }, cost);
    expect(result).toEqual(referenceConsensus(subs, { frame: FRAME }));
    // Workers 4 apart put a box 4 px beside another (IoU 0.43): 13,500 IoUs, where comparing every box
    // with every cluster computed about 15,000² / 2 = 112 million.
    expect(cost.ious).toBe(13_500);
  });

  it('4,000 boxes on 400 objects drawn by 10 workers (at the cap): the same clusters, each box compared with its object only', () => {
    let state = 7;
    const random = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const objects = Array.from({ length: 400 }, (_, i) => ({ x: 60 + (i % 25) * 160, y: 60 + Math.floor(i / 25) * 160 }));
    const subs: Submission[] = Array.from({ length: 10 }, (_, w) => ({
      worker: worker(w),
      boxes: objects.map((o) => ({
        label: 'car',
        center_x: o.x + Math.round(random() * 10 - 5),
        center_y: o.y + Math.round(random() * 10 - 5),
        width: 100 + Math.round(random() * 10 - 5),
        height: 80,
      })),
    }));
    const cost: ConsensusCost = { ious: 0 };
    const result = consensusWithCost(subs, {}, cost);
    expect(result).toEqual(referenceConsensus(subs));
    expect(result).toHaveLength(400);
    expect(result.every((b) => b.support === 10)).toBe(true);
    // Each box meets the members of its own object's cluster: 400 x (0 + 1 + ... + 9) IoUs.
    expect(cost.ious).toBe(400 * 45);
  });

  it.each([
    ['10 x 400', 10, 400],
    ['100 x 40', 100, 40],
  ])('identical boxes at the cap (%s): the same result, and no more IoUs than pairs of boxes', (_name, workers, perWorker) => {
    const subs: Submission[] = Array.from({ length: workers }, (_, w) => ({
      worker: worker(w),
      boxes: Array.from({ length: perWorker }, () => ({ label: 'car', center_x: 5000, center_y: 5000, width: 400, height: 300 })),
    }));
    const cost: ConsensusCost = { ious: 0 };
    const result = consensusWithCost(subs, {}, cost);
    expect(result).toEqual(referenceConsensus(subs));
    const drawn = { label: 'car', center_x: 5000, center_y: 5000, width: 400, height: 300 };
    expect(result).toEqual(Array.from({ length: perWorker }, () => ({ ...drawn, support: workers, agreement: 1 })));
    const boxes = workers * perWorker;
    expect(cost.ious).toBeLessThanOrEqual((boxes * (boxes - 1)) / 2);
  });

  it('heavily overlapping boxes of random sizes at the cap (20 x 200), at thresholds 0.5 and 1: the same result, and no more IoUs than pairs of boxes', () => {
    let state = 11;
    const random = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
    const subs: Submission[] = Array.from({ length: 20 }, (_, w) => ({
      worker: worker(w),
      boxes: Array.from({ length: 200 }, () => ({ label: 'car', center_x: int(4995, 5005), center_y: int(4995, 5005), width: int(20, 2000), height: int(20, 2000) })),
    }));
    // At threshold 1 no box joins another, so each is compared with every earlier box of another worker.
    for (const iouThreshold of [0.5, 1]) {
      const cost: ConsensusCost = { ious: 0 };
      const result = consensusWithCost(subs, { iouThreshold }, cost);
      expect(result).toEqual(referenceConsensus(subs, { iouThreshold }));
      if (iouThreshold === 0.5) expect(result.length).toBeGreaterThan(0);
      expect(cost.ious).toBeLessThanOrEqual((4000 * 3999) / 2);
    }
  });
});
