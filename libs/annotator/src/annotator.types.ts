import type { Box } from '@crowdbox/boxes';
import type { LabelInfo } from '@crowdbox/contracts';
import type { ImageStatus } from './canvas/use-image';

export type { ImageStatus };

/** A read-only set of boxes drawn dashed over the image (the console shows each worker's boxes so). */
export interface OverlayBoxSet {
  id: string;
  name: string;
  boxes: Box[];
  /** Stroke colour; defaults to the colour of each box's label. */
  color?: string;
  visible: boolean;
}

export interface AnnotatorProps {
  /**
   * The task image. Loaded without crossOrigin unless it is another origin. A failure, or no load within
   * 20 s, shows "The image didn't load" with Retry.
   */
  imageUrl: string;
  /** The project's labels: keys 1–9 pick them in this order, each drawn in its own colour. */
  labels: LabelInfo[];
  /** Controlled value, in image pixels. */
  boxes: Box[];
  /** Called with integer image-pixel boxes after every edit; without it (or with readOnly) the editor only views. */
  onChange?: (boxes: Box[]) => void;
  readOnly?: boolean;
  /**
   * The most boxes the editor lets the user have: at it, drawing (or an undo or redo that would add a
   * box) does nothing and says why; editing, moving, relabeling and deleting still work. Boxes given
   * beyond it are kept. Absent: no limit.
   */
  maxBoxes?: number;
  overlays?: OverlayBoxSet[];
  /** The natural size of the image, once it has loaded. */
  onImageSize?: (size: { width: number; height: number }) => void;
  /** The image's load status, at every change ('loading' again after Retry). */
  onImageStatus?: (status: ImageStatus) => void;
  className?: string;
  /** Height of the stage; by default it fills the parent, at least 400 px (or 70% of a shorter screen). */
  height?: number | string;
}
