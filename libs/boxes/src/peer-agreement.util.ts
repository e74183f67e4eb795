import { boxToRect } from './box-rect.util';
import type { Rect } from './box.types';
import type { ConsensusOptions, Submission } from './consensus.types';
import { consensus, DEFAULT_IOU_THRESHOLD, isUsable } from './consensus.util';
import { rectIou } from './iou.util';
import { rectInFrame } from './scale.util';

/** How one worker's boxes of a task agree with what the task's other workers drew. */
export interface PeerAgreement {
  worker: string;
  /** The worker's boxes (those the consensus can place). */
  boxes: number;
  /** The boxes of the other workers' consensus. */
  peerBoxes: number;
  /** Pairs of one of each, of one label, whose IoU is at or above the threshold; a box is in one pair at most, and as many pairs as can be. */
  matched: number;
}

interface Labelled {
  label: string;
  rect: Rect;
}

/**
 * Each worker's boxes against the consensus of the other workers of the task (leave-one-out): against
 * the consensus of all of them, a worker's own boxes would count for themselves, and with two workers
 * every box is kept, so everyone would agree with everything. With `options.frame` (the task's frame)
 * boxes are compared in its pixels, as the consensus compares them. Fewer than two submissions: none.
 */
export function peerAgreement(submissions: readonly Submission[], options: ConsensusOptions = {}): PeerAgreement[] {
  if (submissions.length < 2) return [];
  const threshold = options.iouThreshold ?? DEFAULT_IOU_THRESHOLD;
  const { frame } = options;
  return submissions.map((submission) => {
    const { image } = submission;
    const own = submission.boxes.filter(isUsable).map((box) => ({ label: box.label, rect: image && frame ? rectInFrame(box, image, frame) : boxToRect(box) }));
    const peers = consensus(
      submissions.filter((other) => other !== submission),
      options,
    ).map((box) => ({ label: box.label, rect: boxToRect(box) }));
    return { worker: submission.worker, boxes: own.length, peerBoxes: peers.length, matched: matchCount(own, peers, threshold) };
  });
}

/**
 * As many one-to-one pairs of `a` and `b` as there can be, each of one label at or above `threshold`: a
 * maximum bipartite matching (augmenting paths, Kuhn's). Pairing the highest IoU first instead could take
 * the one peer box a second box of the worker's needed, and call a worker who drew every object careless.
 */
function matchCount(a: Labelled[], b: Labelled[], threshold: number): number {
  const partners = a.map((x) => b.flatMap((y, j) => (x.label === y.label && rectIou(x.rect, y.rect) >= threshold ? [j] : [])));
  const pairedWith = new Array<number>(b.length).fill(-1);
  const assign = (i: number, seen: boolean[]): boolean => {
    for (const j of partners[i]) {
      if (seen[j]) continue;
      seen[j] = true;
      if (pairedWith[j] < 0 || assign(pairedWith[j], seen)) {
        pairedWith[j] = i;
        return true;
      }
    }
    return false;
  };
  let pairs = 0;
  for (let i = 0; i < a.length; i++) if (assign(i, new Array<boolean>(b.length).fill(false))) pairs++;
  return pairs;
}
