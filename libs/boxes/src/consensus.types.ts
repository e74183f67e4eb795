import type { Box } from './box.types';

/** One worker's answer for a task. A worker who drew nothing still submits, with `boxes: []`. */
export interface Submission {
  worker: string;
  boxes: Box[];
}

export interface ConsensusOptions {
  /** Minimum mean IoU for a box to join a cluster, in (0, 1]. Default 0.5. */
  iouThreshold?: number;
}

/**
 * A merged box: the five Box fields, then how many workers drew it (`support`) and their mean
 * pairwise IoU rounded to 3 decimals (`agreement`, 1 for a single box).
 */
export interface ConsensusBox extends Box {
  support: number;
  agreement: number;
}
