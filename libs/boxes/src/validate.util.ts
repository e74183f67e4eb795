import { boxToRect } from './box-rect.util';
import type { Box, ImageSize } from './box.types';

/**
 * How far (in image pixels) a box edge may lie outside the image and still be accepted.
 *
 * Boxes are stored as integer center and size, so a box with an odd width has edges on half pixels.
 * A box flush with the right edge of a 3 px image (x0 = 0, x1 = 3) is stored by clampBox as
 * center_x 2, width 3, whose edges read back as 0.5..3.5. Rejecting that would reject the output of
 * our own clampBox for any odd-sized box touching the right or bottom edge, so half a pixel of
 * overhang — the most that rounding can introduce — is tolerated, and no more.
 */
export const EDGE_ROUNDING_SLACK = 0.5;

const NUMERIC_FIELDS = ['center_x', 'center_y', 'width', 'height'] as const;

/**
 * Checks that a box can be stored for an image. Returns a human-readable reason for the first
 * problem found, or null when the box is acceptable.
 *
 * Rules: center_x, center_y, width, height are finite numbers; width > 0 and height > 0; width and
 * height do not exceed the image; every edge lies within the image, allowing EDGE_ROUNDING_SLACK
 * for the half pixel an integer center cannot express. Integer-ness is not required here: callers
 * that accept fractional input pass it through clampBox afterwards.
 */
export function boxInsideImage(box: Box, image: ImageSize): string | null {
  if (!(Number.isFinite(image.width) && image.width > 0 && Number.isFinite(image.height) && image.height > 0)) {
    return `image size must be positive finite numbers (got ${image.width}x${image.height})`;
  }
  for (const field of NUMERIC_FIELDS) {
    const value: unknown = box[field];
    // typeof guards data that bypassed the type system (JSON, database rows).
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      return `${field} must be a finite number (got ${String(value)})`;
    }
  }
  if (box.width <= 0) return `width must be greater than 0 (got ${box.width})`;
  if (box.height <= 0) return `height must be greater than 0 (got ${box.height})`;
  if (box.width > image.width) return `width ${box.width} exceeds the image width ${image.width}`;
  if (box.height > image.height) return `height ${box.height} exceeds the image height ${image.height}`;

  const rect = boxToRect(box);
  if (rect.x0 < -EDGE_ROUNDING_SLACK) return `left edge x0=${rect.x0} is outside the image`;
  if (rect.y0 < -EDGE_ROUNDING_SLACK) return `top edge y0=${rect.y0} is outside the image`;
  if (rect.x1 > image.width + EDGE_ROUNDING_SLACK) {
    return `right edge x1=${rect.x1} is beyond the image width ${image.width}`;
  }
  if (rect.y1 > image.height + EDGE_ROUNDING_SLACK) {
    return `bottom edge y1=${rect.y1} is beyond the image height ${image.height}`;
  }
  return null;
}
