import type { ImageSize } from '@crowdbox/boxes';

/** The element's own size: what the browser lays it out at. */
const naturalSize = (img: HTMLImageElement): ImageSize => ({ width: img.naturalWidth, height: img.naturalHeight });

/**
 * The frame boxes are drawn and submitted in: the image's decoded pixels, turned by its EXIF
 * orientation (docs/annotator.md, "The image frame").
 *
 * Not `naturalWidth` / `naturalHeight` alone: Chromium scales those by a JPEG's EXIF resolution (a
 * 240x120 file at 144 dpi whose PixelX/YDimension say 120x60 reports 120x60), so boxes would be sent
 * at half scale against the file's pixels. `createImageBitmap` of the loaded element gives the decoded
 * size with the orientation applied (a tainted cross-origin image too). Should a browser hand back
 * the bitmap unturned while it shows the element turned, the bitmap's size is turned to the element's
 * proportions. Without a bitmap (an SVG with no width and height, which has no pixels of its own, or
 * no createImageBitmap) the element's size is the frame.
 */
export async function imageFrame(img: HTMLImageElement): Promise<ImageSize> {
  const natural = naturalSize(img);
  if (typeof window.createImageBitmap !== 'function') return natural;
  let decoded: ImageSize;
  try {
    const bitmap = await window.createImageBitmap(img);
    decoded = { width: bitmap.width, height: bitmap.height };
    bitmap.close();
  } catch {
    return natural;
  }
  if (!(decoded.width > 0 && decoded.height > 0 && natural.width > 0 && natural.height > 0)) return natural;
  return turnedLike(decoded, natural);
}

/** `size`, or `size` turned a quarter, whichever has the proportions of `shown`. */
export function turnedLike(size: ImageSize, shown: ImageSize): ImageSize {
  const ratio = (s: ImageSize) => Math.log(s.width / s.height);
  const turned = { width: size.height, height: size.width };
  return Math.abs(ratio(turned) - ratio(shown)) < Math.abs(ratio(size) - ratio(shown)) ? turned : size;
}
