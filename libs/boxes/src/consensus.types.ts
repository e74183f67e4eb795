import type { Box, ImageSize } from './box.types';

/** One worker's answer for a task. A worker who drew nothing still submits, with `boxes: []`. */
export interface Submission {
  worker: string;
  boxes: Box[];
  /** The image size the worker's browser reported, whose pixels `boxes` are in (see `frame`). */
  image?: ImageSize;
}

export interface ConsensusOptions {
  /** Minimum mean IoU for a box to join a cluster, in (0, 1]. Default 0.5. */
  iouThreshold?: number;
  /**
   * The size whose pixels the result is in. A submission whose `image` differs has its boxes scaled
   * into it (scaleBox) before they are compared; without a frame, or without an `image`, boxes are
   * taken as they are.
   */
  frame?: ImageSize;
}

/**
 * A merged box: the five Box fields, then how many workers drew it (`support`) and their mean
 * pairwise IoU rounded to 3 decimals (`agreement`, 1 for a single box).
 */
export interface ConsensusBox extends Box {
  support: number;
  agreement: number;
}
