/**
 * The consensus (API.md §5) as it was before candidate clusters were found through a grid: the code of
 * consensus.util.ts at commit 626eb74, unchanged but for these names, which compares every box with every
 * member of every cluster of its label. The cost specs check that the current code answers exactly what
 * this does. Not a spec file: jest runs only *.spec.ts.
 */
import { boxToRect, rectToBox } from '../box-rect.util';
import type { Box, ImageSize, Rect } from '../box.types';
import { clampBoxAtLeastOnePixel } from '../clamp.util';
import type { ConsensusBox, ConsensusOptions, Submission } from '../consensus.types';
import { rectIou } from '../iou.util';
import { median } from '../median.util';
import { roundBox, roundHalfAwayFromZero } from '../round.util';
import { rectInFrame } from '../scale.util';

const DEFAULT_IOU_THRESHOLD = 0.5;

/** Tolerance for treating two IoU means (or a mean and the threshold) as equal. */
const TIE_EPSILON = 1e-9;

interface Entry {
  worker: string;
  label: string;
  rect: Rect;
}

interface Cluster {
  label: string;
  entries: Entry[];
  workers: Set<string>;
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

function isUsable(box: Box): boolean {
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

function meanIouWith(rect: Rect, cluster: Cluster): number {
  let sum = 0;
  for (const entry of cluster.entries) sum += rectIou(rect, entry.rect);
  return sum / cluster.entries.length;
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

/** Picks the cluster `entry` should join, or undefined to start a new one (see header, rule 2). */
function bestCluster(entry: Entry, clusters: readonly Cluster[], threshold: number): Cluster | undefined {
  let best: Cluster | undefined;
  let bestScore = -Infinity;
  // Clusters are in creation order; only a strictly better score replaces the current best, so
  // ties stay with the earliest-created cluster.
  for (const cluster of clusters) {
    if (cluster.workers.has(entry.worker)) continue;
    const score = meanIouWith(entry.rect, cluster);
    if (!(score >= threshold - TIE_EPSILON)) continue;
    if (best === undefined || score > bestScore + TIE_EPSILON) {
      best = cluster;
      bestScore = score;
    }
  }
  return best;
}

export function referenceConsensus(submissions: readonly Submission[], options: ConsensusOptions = {}): ConsensusBox[] {
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

  const clustersByLabel = new Map<string, Cluster[]>();
  const allClusters: Cluster[] = [];

  for (const submission of ordered) {
    const { image } = submission;
    const { frame } = options;
    const entries = submission.boxes
      .filter(isUsable)
      .map((box): Entry => ({ worker: submission.worker, label: box.label, rect: image && frame ? rectInFrame(box, image, frame) : boxToRect(box) }))
      .sort(compareEntries);

    for (const entry of entries) {
      let clusters = clustersByLabel.get(entry.label);
      if (clusters === undefined) {
        clusters = [];
        clustersByLabel.set(entry.label, clusters);
      }
      const target = bestCluster(entry, clusters, threshold);
      if (target) {
        target.entries.push(entry);
        target.workers.add(entry.worker);
      } else {
        const created: Cluster = { label: entry.label, entries: [entry], workers: new Set([entry.worker]) };
        clusters.push(created);
        allClusters.push(created);
      }
    }
  }

  const minSupport = Math.ceil(k / 2);
  return allClusters
    .filter((cluster) => cluster.entries.length >= minSupport)
    .map((cluster) => mergeCluster(cluster, options.frame))
    .sort(compareOutput);
}
