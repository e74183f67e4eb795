import type { ImageSize } from './box.types';
import type { StageSize, Viewport } from './viewport.types';

const isPositiveFinite = (n: number): boolean => Number.isFinite(n) && n > 0;

/**
 * The viewport that shows the whole image as large as possible inside the stage, centered, with at
 * least `padding` screen pixels on every side. Small images are scaled up too, so the worker always
 * starts with the image filling the stage.
 *
 * If the stage is too small for the padding (stage <= 2 * padding on an axis) the padding is dropped
 * instead of producing a zero or negative scale. A zero-sized image or stage (e.g. a canvas not yet
 * laid out) has no meaningful fit, and throws rather than returning an Infinity/NaN viewport that
 * would silently corrupt every coordinate derived from it.
 */
export function fitToScreen(image: ImageSize, stage: StageSize, padding = 0): Viewport {
  if (!isPositiveFinite(image.width) || !isPositiveFinite(image.height)) {
    throw new RangeError(`image size must be positive (got ${image.width}x${image.height})`);
  }
  if (!isPositiveFinite(stage.width) || !isPositiveFinite(stage.height)) {
    throw new RangeError(`stage size must be positive (got ${stage.width}x${stage.height})`);
  }
  const pad = Number.isFinite(padding) && padding > 0 ? padding : 0;
  const fits = stage.width - 2 * pad > 0 && stage.height - 2 * pad > 0;
  const usedPad = fits ? pad : 0;

  const scale = Math.min((stage.width - 2 * usedPad) / image.width, (stage.height - 2 * usedPad) / image.height);
  return {
    scale,
    offsetX: (stage.width - image.width * scale) / 2,
    offsetY: (stage.height - image.height * scale) / 2,
  };
}
