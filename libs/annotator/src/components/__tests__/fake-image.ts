/** What a fake image does with a URL: load, fail, never answer, or load after SLOW_LOAD_MS (a big image on a slow line). */
export type FakeLoad = 'load' | 'error' | 'hang' | 'slow';

/** How long a 'slow' image takes: longer than IMAGE_TIMEOUT_MS. */
export const SLOW_LOAD_MS = 30_000;

const byName = (url: string): FakeLoad =>
  url.includes('broken') ? 'error' : url.includes('hang') ? 'hang' : url.includes('slow') ? 'slow' : 'load';

/**
 * jsdom loads no images: this stands in for window.Image with a real <img> element (so Konva and
 * jest-canvas-mock accept it) that "loads" as an 800x600 image, or fails when the URL says 'broken',
 * or never answers when it says 'hang', or loads after SLOW_LOAD_MS when it says 'slow' (or as `behave`
 * decides), and for createImageBitmap, which
 * decodes it at that size.
 */
export function installFakeImage(size = { width: 800, height: 600 }, behave: (url: string) => FakeLoad = byName): () => void {
  const original = window.Image;
  function FakeImage(): HTMLImageElement {
    const img = document.createElement('img');
    Object.defineProperty(img, 'naturalWidth', { value: size.width });
    Object.defineProperty(img, 'naturalHeight', { value: size.height });
    let src = '';
    Object.defineProperty(img, 'src', {
      get: () => src,
      set: (value: string) => {
        src = value;
        const outcome = behave(value);
        if (outcome === 'hang') return;
        setTimeout(() => (outcome === 'error' ? img.onerror?.(new Event('error')) : img.onload?.(new Event('load'))), outcome === 'slow' ? SLOW_LOAD_MS : 0);
      },
    });
    return img;
  }
  window.Image = FakeImage as unknown as typeof window.Image;
  // The decoded bitmap (image-frame.util.ts) is the same size; jest-canvas-mock's would be 1x1.
  const originalBitmap = window.createImageBitmap;
  window.createImageBitmap = (() => Promise.resolve({ ...size, close: () => undefined })) as unknown as typeof window.createImageBitmap;
  return () => {
    window.Image = original;
    window.createImageBitmap = originalBitmap;
  };
}

/** jsdom lays nothing out: give the stage wrapper a size so the stage and the fit have one. */
export function installStageSize(width = 800, height = 600): () => void {
  const w = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientWidth');
  const h = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight');
  const sized = (el: HTMLElement): boolean => el.dataset['testid'] === 'annotator-stage';
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: function (this: HTMLElement) { return sized(this) ? width : 0; } });
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: function (this: HTMLElement) { return sized(this) ? height : 0; } });
  return () => {
    if (w) Object.defineProperty(HTMLElement.prototype, 'clientWidth', w);
    if (h) Object.defineProperty(HTMLElement.prototype, 'clientHeight', h);
  };
}
