import { imageFrame, turnedLike } from '../image-frame.util';

/** A loaded <img> whose element size (naturalWidth/Height) is `natural`. */
function imageShownAt(natural: { width: number; height: number }): HTMLImageElement {
  const img = document.createElement('img');
  Object.defineProperty(img, 'naturalWidth', { value: natural.width });
  Object.defineProperty(img, 'naturalHeight', { value: natural.height });
  return img;
}

describe('the image frame', () => {
  const original = window.createImageBitmap;
  const decodesAs = (bitmap: { width: number; height: number } | Error) => {
    window.createImageBitmap = (() =>
      bitmap instanceof Error ? Promise.reject(bitmap) : Promise.resolve({ ...bitmap, close: () => undefined })) as unknown as typeof window.createImageBitmap;
  };
  afterEach(() => {
    window.createImageBitmap = original;
  });

  it("is the decoded pixels, not the element's size that Chromium scales by a JPEG's EXIF resolution", async () => {
    // 240x120 at 144 dpi: Chromium's <img> reports 120x60.
    decodesAs({ width: 240, height: 120 });
    expect(await imageFrame(imageShownAt({ width: 120, height: 60 }))).toEqual({ width: 240, height: 120 });
    // The same file with Orientation 6: both come turned.
    decodesAs({ width: 120, height: 240 });
    expect(await imageFrame(imageShownAt({ width: 60, height: 120 }))).toEqual({ width: 120, height: 240 });
  });

  it('keeps the orientation the element is shown in should the bitmap come unturned', async () => {
    decodesAs({ width: 4032, height: 3024 });
    expect(await imageFrame(imageShownAt({ width: 3024, height: 4032 }))).toEqual({ width: 3024, height: 4032 });
    expect(turnedLike({ width: 240, height: 120 }, { width: 120, height: 60 })).toEqual({ width: 240, height: 120 });
    expect(turnedLike({ width: 100, height: 100 }, { width: 50, height: 50 })).toEqual({ width: 100, height: 100 });
  });

  it("is the element's size when there is no bitmap (an SVG without width and height has no pixels of its own)", async () => {
    decodesAs(new DOMException('The image element contains an SVG image without intrinsic dimensions', 'InvalidStateError'));
    expect(await imageFrame(imageShownAt({ width: 300, height: 150 }))).toEqual({ width: 300, height: 150 });
  });
});
