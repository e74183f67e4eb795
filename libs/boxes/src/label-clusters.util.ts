import type { Rect } from './box.types';
import { scaledIou } from './iou.util';
import { RectGrid } from './rect-grid.util';

// Math's functions are read once, as in iou.util.ts (a global lookup is slow in Jest's sandbox).
const { min, max } = Math;
const { MAX_VALUE } = Number;

/** Tolerance for treating two IoU means (or a mean and the threshold) as equal (consensus.util.ts). */
const TIE_EPSILON = 1e-9;

/**
 * Labels with at least this many boxes look up candidate clusters through a RectGrid; below it,
 * scanning every cluster costs less than building the grid (bench/consensus-cost.mjs).
 */
export const GRID_FROM = 200;

/** Numbers kept per member in LabelClusters.members. */
const STRIDE = 6;

/** What LabelClusters keeps to search through a grid. */
interface GridSearch {
  grid: RectGrid;
  /** Per member, its cluster; per cluster, the number of the last query that listed it. */
  clusterOf: number[];
  listed: number[];
  query: number;
  /** Scratch lists of bestNearby, reused. */
  found: number[];
  candidates: number[];
}

/** Work counted for tests and the bench (consensusWithCost). */
export interface ConsensusCost {
  /** IoUs computed to choose clusters (the agreement's, a few per kept cluster, are not counted). */
  ious: number;
}

/**
 * The greedy clustering of one label's boxes (consensus.util.ts, rule 2), fed box by box in the rule's
 * order; `add` answers the index of the cluster the box joined, a new one being the next index.
 *
 * Exactly the rule as written, which compared each box with every member of every cluster through
 * rectIou (the code of commit 626eb74, kept as the tests' reference), made cheaper in two ways that change
 * no result:
 *  - The IoU is rectIou's arithmetic, operation for operation, on flat arrays of the members' edges
 *    (an area computed once is the same product each time), summed in the cluster's order, so each mean
 *    is the same number. "The cluster holds a box of this worker" is "this worker was the last to add to
 *    it", since each worker's boxes are fed one after another.
 *  - With a grid, only clusters with a member sharing area with the box are candidates. rectIou is 0
 *    (not NaN) for two rects that share no area, whatever their edges, so any other cluster's mean is a
 *    sum of zeros, exactly 0, below `threshold - TIE_EPSILON` whenever the grid is used (that is
 *    positive), and the scan would pass over it; candidates are taken in creation order, so
 *    ties go to the same earliest cluster. Where the box touches most members anyway (many workers on one
 *    object), the grid would cost more than it saves and the clusters are scanned.
 */
export class LabelClusters {
  /**
   * Per member (in the order they were added), STRIDE numbers: its edges x0 y0 x1 y1, its area, and 1
   * when it passes rectIou's first test (positive width and height), else 0. One flat array of numbers.
   */
  private readonly members: number[] = [];
  private added = 0;
  /** Per cluster, its members in the order they joined. */
  private readonly clusterMembers: number[][] = [];
  /** Per cluster, the last worker that added to it. */
  private readonly lastWorker: number[] = [];
  private readonly search: GridSearch | undefined;

  /** For the boxes in `rects` (this label's, in any order), which size the grid. */
  constructor(
    rects: readonly Rect[],
    private readonly threshold: number,
    private readonly cost?: ConsensusCost,
    gridFrom = GRID_FROM,
  ) {
    const pruning = threshold - TIE_EPSILON > 0;
    if (pruning && rects.length >= gridFrom) {
      this.search = { grid: new RectGrid(rects), clusterOf: [], listed: [], query: 0, found: [], candidates: [] };
    }
  }

  /** Clusters `rect`, drawn by `worker` (an ordinal: each worker's boxes are added one after another). */
  add(rect: Rect, worker: number): number {
    const id = this.added++;
    const w = rect.x1 - rect.x0;
    const h = rect.y1 - rect.y0;
    const valid = w > 0 && h > 0;
    this.members.push(rect.x0, rect.y0, rect.x1, rect.y1, w * h, valid ? 1 : 0);

    const { search } = this;
    let target = search ? this.bestNearby(id, rect, worker, search) : this.best(id, worker, undefined);
    if (target < 0) {
      target = this.clusterMembers.length;
      this.clusterMembers.push([id]);
      this.lastWorker.push(worker);
      search?.listed.push(0);
    } else {
      this.clusterMembers[target].push(id);
      this.lastWorker[target] = worker;
    }
    if (search) {
      search.clusterOf.push(target);
      if (valid) search.grid.insert(id, rect);
    }
    return target;
  }

  private bestNearby(id: number, rect: Rect, worker: number, search: GridSearch): number {
    // A box without area has IoU 0 with everything: it starts a cluster that nothing joins.
    if (this.members[id * STRIDE + 5] !== 1) return -1;
    const { grid, clusterOf, listed, found, candidates } = search;
    if (2 * grid.nearby(rect) > id) return this.best(id, worker, undefined);
    found.length = 0;
    candidates.length = 0;
    grid.overlapping(rect, found);
    const query = ++search.query;
    for (const member of found) {
      const cluster = clusterOf[member];
      if (listed[cluster] === query) continue;
      listed[cluster] = query;
      candidates.push(cluster);
    }
    if (candidates.length === 0) return -1;
    candidates.sort((a, b) => a - b);
    return this.best(id, worker, candidates);
  }

  /**
   * The cluster member `id` joins among `candidates` (default: all), in creation order: the highest
   * mean IoU at or above the threshold, the earliest of those within TIE_EPSILON of it; -1 for none.
   * The mean is rectIou(box, member) over the cluster's members in their order, rectIou's steps inlined
   * (this loop is the consensus's cost).
   */
  private best(id: number, worker: number, candidates: readonly number[] | undefined): number {
    const { members, clusterMembers, lastWorker, cost } = this;
    const passes = this.threshold - TIE_EPSILON;
    const at = id * STRIDE;
    const ax0 = members[at];
    const ay0 = members[at + 1];
    const ax1 = members[at + 2];
    const ay1 = members[at + 3];
    const aArea = members[at + 4];
    const aValid = members[at + 5] === 1;
    let best = -1;
    let bestScore = 0;
    const n = candidates ? candidates.length : clusterMembers.length;
    for (let i = 0; i < n; i++) {
      const cluster = candidates ? candidates[i] : i;
      if (lastWorker[cluster] === worker) continue;
      const list = clusterMembers[cluster];
      if (cost) cost.ious += list.length;
      let sum = 0;
      for (const m of list) {
        const bt = m * STRIDE;
        // A zero IoU is not added: adding +0 to a sum of non-negative numbers leaves it as it is.
        if (!(aValid && members[bt + 5] === 1)) continue;
        const iw = min(ax1, members[bt + 2]) - max(ax0, members[bt]);
        const ih = min(ay1, members[bt + 3]) - max(ay0, members[bt + 1]);
        if (!(iw > 0 && ih > 0)) continue;
        const intersection = iw * ih;
        const union = aArea + members[bt + 4] - intersection;
        sum +=
          union > 0 && union <= MAX_VALUE
            ? intersection / union
            : scaledIou(ax1 - ax0, ay1 - ay0, members[bt + 2] - members[bt], members[bt + 3] - members[bt + 1], iw, ih);
      }
      const score = sum / list.length;
      // Written so that a NaN score fails: `score < passes` is false for NaN, which let a box join the
      // first cluster it met. The IoUs above are never NaN now (scaledIou); this holds should one be.
      if (!(score >= passes)) continue;
      // Only a strictly better score replaces the current best, so ties stay with the earliest cluster.
      if (best < 0 || score > bestScore + TIE_EPSILON) {
        best = cluster;
        bestScore = score;
      }
    }
    return best;
  }
}
