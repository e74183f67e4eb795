/**
 * Consensus of several workers' boxes for one image.
 *
 * Rule (fixed by the contract):
 *  1. Boxes are grouped by label (exact, case-sensitive string equality); boxes of different labels
 *     are never compared, even when they coincide.
 *  2. Within a label, boxes are clustered greedily: a box joins the cluster with the highest mean
 *     IoU (mean over the boxes already in the cluster) that is at or above `iouThreshold`, among the
 *     clusters that do not yet hold a box of the same worker; otherwise it starts a new cluster.
 *     So a cluster holds at most one box per worker, and two boxes of one worker never merge.
 *  3. With k submissions (counting submissions with no boxes), clusters with fewer than ceil(k/2)
 *     boxes are dropped. For k = 1 (and k = 2) that keeps every box.
 *  4. The merged box is the per-edge median of the cluster (x0, y0, x1, y1 separately; an even
 *     count takes the mean of the two middle values), converted to an integer box the way a stored
 *     box is (DESIGN.md §6): with a frame, its edges are clamped inside the frame, then center and
 *     size are rounded half away from zero, and a width or height under 1 px is made 1 px
 *     (clampBoxAtLeastOnePixel); without one, only rounded (roundBox). The clamp matters although a
 *     median of edges lies between the input edges: rounding center and size separately moves an edge
 *     by up to a pixel, so two boxes reaching the right edge of a 10 px image (x 0..10 and 1.5..10.5,
 *     medians 0.75..10.25) rounded to center 6, width 10, i.e. 1..11, a pixel past the image and past
 *     both workers' boxes. The 1 px matters for boxes scaled into a smaller frame: a 1 px box drawn on
 *     a 4000 px copy is 0.016 px in a 64 px frame, and rounded to width 0 it went out as a box no
 *     worker could have submitted (boxInsideImage refuses it), a COCO area of 0.
 *  5. support = boxes in the cluster; agreement = mean pairwise IoU in the cluster, rounded to 3
 *     decimals, 1 for a single-box cluster.
 *
 * Determinism (the result depends only on the SET of submissions, never on their order):
 *  - Workers are processed in ascending worker id, compared by UTF-16 code units (`<`), not
 *    localeCompare, because locale collation can differ between the API server and a browser.
 *  - Each worker's boxes are processed sorted by label, then x0, y0, x1, y1 of their edges.
 *  - A box equally close to several clusters joins the EARLIEST-CREATED one. Means within 1e-9 of
 *    each other count as equal, as does a mean within 1e-9 below the threshold, so that values that
 *    are mathematically equal but differ in the last floating-point bit are treated as the tie (or
 *    the pass) they are.
 *  - Output is sorted by label, then center_y, then center_x (reading order), and then by width,
 *    height, support, agreement so that even coinciding boxes have a fixed order.
 *
 * Frames: boxes are in the pixels of the image size their worker's browser reported. With
 * `options.frame`, a submission that reported another size has its boxes scaled into the frame
 * first (rectInFrame), so that the same object drawn on a 640 px and a 1280 px copy merges, and the
 * result is in the frame's pixels. Every box is clamped to the frame, scaled or not: a box may lie
 * half a pixel past its own image's edge (EDGE_ROUNDING_SLACK), scaling up would widen that, and
 * clamping only the scaled ones made two boxes at an edge overlap more or less depending on which
 * submission's size is the frame. The merged box is clamped to the frame too (rule 4).
 *
 * Input hygiene: two submissions with the same worker id are a caller bug (their order could not be
 * made deterministic and the one-box-per-worker rule would be ambiguous), so they throw. Boxes
 * with non-finite numbers or a non-positive width/height cannot overlap anything and are skipped
 * (they still do not change k: the worker did submit).
 *
 * Cost: rule 2 is computed by LabelClusters (label-clusters.util.ts), which gives exactly the clusters
 * of comparing each box with every member of every cluster of its label, but compares a box only with
 * clusters it overlaps, found through a grid. Boxes that overlap many others still cost a comparison
 * each: that work grows with the square of a task's boxes, which LIMITS.boxesPerTask bounds
 * (docs/decisions.md, "A task holds at most 4,000 boxes").
 */
import { boxToRect, rectToBox } from './box-rect.util';
import type { Box, ImageSize, Rect } from './box.types';
import { clampBoxAtLeastOnePixel } from './clamp.util';
import type { ConsensusBox, ConsensusOptions, Submission } from './consensus.types';
import { rectIou } from './iou.util';
import { median } from './median.util';
import { roundBox, roundHalfAwayFromZero } from './round.util';
import { GRID_FROM, LabelClusters, type ConsensusCost } from './label-clusters.util';
import { rectInFrame } from './scale.util';

export const DEFAULT_IOU_THRESHOLD = 0.5;

interface Entry {
  /** The submission's place in the order workers are clustered in. */
  worker: number;
  label: string;
  rect: Rect;
}

interface Cluster {
  label: string;
  entries: Entry[];
}

/** One label's boxes, its clusters (in creation order) and the clustering that places each box. */
interface LabelState {
  rects: Rect[];
  clusters: Cluster[];
  clustering: LabelClusters | undefined;
}

const compareCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function compareEntries(a: Entry, b: Entry): number {
  return (
    compareCodeUnits(a.label, b.label) ||
    a.rect.x0 - b.rect.x0 ||
    a.rect.y0 - b.rect.y0 ||
    a.rect.x1 - b.rect.x1 ||
    a.rect.y1 - b.rect.y1
  );
}

function compareOutput(a: ConsensusBox, b: ConsensusBox): number {
  return (
    compareCodeUnits(a.label, b.label) ||
    a.center_y - b.center_y ||
    a.center_x - b.center_x ||
    a.width - b.width ||
    a.height - b.height ||
    b.support - a.support ||
    b.agreement - a.agreement
  );
}

/** A box the consensus can place: a label and finite, positive geometry (others are left out, as by peerAgreement). */
export function isUsable(box: Box): boolean {
  return (
    typeof box.label === 'string' &&
    Number.isFinite(box.center_x) &&
    Number.isFinite(box.center_y) &&
    Number.isFinite(box.width) &&
    Number.isFinite(box.height) &&
    box.width > 0 &&
    box.height > 0
  );
}

function agreementOf(cluster: Cluster): number {
  const { entries } = cluster;
  if (entries.length < 2) return 1;
  let sum = 0;
  let pairs = 0;
  for (let i = 0; i < entries.length; i++) {
    for (let j = i + 1; j < entries.length; j++) {
      sum += rectIou(entries[i].rect, entries[j].rect);
      pairs++;
    }
  }
  return roundHalfAwayFromZero((sum / pairs) * 1000) / 1000;
}

function mergeCluster(cluster: Cluster, frame: ImageSize | undefined): ConsensusBox {
  const rects = cluster.entries.map((e) => e.rect);
  const merged = rectToBox(cluster.label, {
    x0: median(rects.map((r) => r.x0)),
    y0: median(rects.map((r) => r.y0)),
    x1: median(rects.map((r) => r.x1)),
    y1: median(rects.map((r) => r.y1)),
  });
  const box = frame ? clampBoxAtLeastOnePixel(merged, frame) : roundBox(merged);
  return {
    label: box.label,
    center_x: box.center_x,
    center_y: box.center_y,
    width: box.width,
    height: box.height,
    support: cluster.entries.length,
    agreement: agreementOf(cluster),
  };
}

export type { ConsensusCost };

export function consensus(submissions: readonly Submission[], options: ConsensusOptions = {}): ConsensusBox[] {
  return consensusWithCost(submissions, options);
}

/**
 * consensus, adding the IoUs it computes to `cost`, with LabelClusters' grid from `gridFrom` boxes of a
 * label on: for tests and the bench, not exported from the package entry.
 */
export function consensusWithCost(
  submissions: readonly Submission[],
  options: ConsensusOptions = {},
  cost?: ConsensusCost,
  gridFrom = GRID_FROM,
): ConsensusBox[] {
  const threshold = options.iouThreshold ?? DEFAULT_IOU_THRESHOLD;
  // 0 would let boxes that do not overlap at all (IoU 0) merge; the project settings enforce (0, 1].
  if (!(threshold > 0 && threshold <= 1)) {
    throw new RangeError(`iouThreshold must be in (0, 1] (got ${threshold})`);
  }

  const k = submissions.length;
  if (k === 0) return [];

  const ordered = [...submissions].sort((a, b) => compareCodeUnits(a.worker, b.worker));
  for (let i = 1; i < ordered.length; i++) {
    if (ordered[i].worker === ordered[i - 1].worker) {
      throw new RangeError(`duplicate submission for worker ${JSON.stringify(ordered[i].worker)}`);
    }
  }

  // Every box in the order it is clustered (worker by worker), and per label the boxes that size its
  // clustering, which starts once they are all known.
  const { frame } = options;
  const entries: Entry[] = [];
  const labels = new Map<string, LabelState>();
  ordered.forEach((submission, worker) => {
    const { image } = submission;
    const own = submission.boxes
      .filter(isUsable)
      .map((box): Entry => ({ worker, label: box.label, rect: image && frame ? rectInFrame(box, image, frame) : boxToRect(box) }))
      .sort(compareEntries);
    for (const entry of own) {
      entries.push(entry);
      const state = labels.get(entry.label);
      if (state) state.rects.push(entry.rect);
      else labels.set(entry.label, { rects: [entry.rect], clusters: [], clustering: undefined });
    }
  });

  const allClusters: Cluster[] = [];
  for (const entry of entries) {
    // One submission: no two boxes are ever compared (a cluster holds one box per worker), so each is a
    // cluster of its own. Every submit computes this (the API's soloConsensusText): kept cheap.
    if (k === 1) {
      allClusters.push({ label: entry.label, entries: [entry] });
      continue;
    }
    const state = labels.get(entry.label) as LabelState;
    state.clustering ??= new LabelClusters(state.rects, threshold, cost, gridFrom);
    const target = state.clustering.add(entry.rect, entry.worker);
    if (target < state.clusters.length) {
      state.clusters[target].entries.push(entry);
    } else {
      const created: Cluster = { label: entry.label, entries: [entry] };
      state.clusters.push(created);
      allClusters.push(created);
    }
  }

  const minSupport = Math.ceil(k / 2);
  return allClusters
    .filter((cluster) => cluster.entries.length >= minSupport)
    .map((cluster) => mergeCluster(cluster, frame))
    .sort(compareOutput);
}
