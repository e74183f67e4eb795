import type { ImageSize } from '@crowdbox/boxes';
import { useCallback, useEffect, useRef, useState } from 'react';
import { imageFrame } from './image-frame.util';

export type ImageStatus = 'loading' | 'loaded' | 'error';

export interface LoadedImage {
  image: HTMLImageElement | null;
  status: ImageStatus;
  /** The frame boxes are in (image-frame.util.ts), once loaded. */
  size: ImageSize | null;
  /**
   * After a failure, loads the image again (cache-busting where that is safe: retryUrl). While the load is
   * still on its way (past the timeout, no error yet), waits for it again instead of starting it over.
   */
  retry: () => void;
}

/** How long an image may take before the editor says it did not load (a host that never answers). */
export const IMAGE_TIMEOUT_MS = 20_000;

/** The query parameter a retry adds to bypass a cached failure. */
export const RETRY_PARAM = 'crowdbox_retry';

/**
 * 'anonymous' only for another origin: the stage could then still be exported. Same-origin, data:
 * and blob: URLs never need it, and a server that sends no CORS headers is retried without it.
 */
export function crossOriginFor(url: string, pageOrigin: string): 'anonymous' | undefined {
  try {
    const parsed = new URL(url, pageOrigin);
    if (parsed.protocol === 'data:' || parsed.protocol === 'blob:') return undefined;
    return parsed.origin === pageOrigin ? undefined : 'anonymous';
  } catch {
    return undefined;
  }
}

/**
 * The URL of the `attempt`-th load (0: the first). A retry of an http(s) URL without a query gets
 * `?crowdbox_retry=N`, so no cached failure answers it. A URL with a query is loaded as it is: it may be
 * signed (S3, GCS presigned URLs sign every query parameter, so an added one is refused); data: and
 * blob: URLs have no cache to miss.
 */
export function retryUrl(url: string, attempt: number, base: string): string {
  if (attempt === 0) return url;
  try {
    const parsed = new URL(url, base);
    if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.search !== '') return url;
    parsed.searchParams.set(RETRY_PARAM, String(attempt));
    return parsed.href;
  } catch {
    return url;
  }
}

/**
 * Loads `url`: an error, or an image of no size, is status 'error' until `retry()`. No answer within
 * `timeoutMs` is 'error' too, so the worker is not left looking at "Loading image…", but the load goes
 * on: a big image on a slow line that arrives later is still shown ('loaded'). Cutting it at the timeout made such an image
 * impossible to load, every Retry starting it again from nothing; so did a Retry pressed then, which
 * stopped the load and started it over. A Retry before the load has failed keeps it: 'loading' again,
 * for another `timeoutMs`. Only a Retry after a failure starts a new load.
 */
export function useImage(url: string, timeoutMs = IMAGE_TIMEOUT_MS): LoadedImage {
  const [loaded, setLoaded] = useState<Omit<LoadedImage, 'retry'>>({ image: null, status: 'loading', size: null });
  // Retries count per URL: the next task's image starts at its plain URL.
  const [attempts, setAttempts] = useState({ url, n: 0 });
  const attempt = attempts.url === url ? attempts.n : 0;
  // While the load is on its way: waits for it again (Retry past the timeout), instead of starting it over.
  const waitAgain = useRef<(() => void) | null>(null);
  const retry = useCallback(() => {
    if (waitAgain.current) waitAgain.current();
    else setAttempts((a) => ({ url, n: (a.url === url ? a.n : 0) + 1 }));
  }, [url]);

  useEffect(() => {
    let settled = false;
    let current: HTMLImageElement | null = null;
    setLoaded({ image: null, status: 'loading', size: null });
    const showError = (): void => setLoaded({ image: null, status: 'error', size: null });
    const fail = (): void => {
      settled = true;
      waitAgain.current = null;
      showError();
    };
    const src = retryUrl(url, attempt, window.location.href);
    const load = (crossOrigin: 'anonymous' | undefined): void => {
      const img = new window.Image();
      current = img;
      if (crossOrigin) img.crossOrigin = crossOrigin;
      img.onload = () => {
        if (settled) return;
        settled = true;
        waitAgain.current = null;
        void imageFrame(img).then((size) => {
          if (current !== img) return;
          // A size of nothing (some browsers give an SVG with only a viewBox 0x0) has nothing to draw on
          // and no fit to the stage: it is an image that did not load, with Retry, not a RangeError.
          if (size.width > 0 && size.height > 0) setLoaded({ image: img, status: 'loaded', size });
          else showError();
        });
      };
      img.onerror = () => {
        if (settled) return;
        if (crossOrigin) load(undefined);
        else fail();
      };
      img.src = src;
    };
    // A host that never answers would otherwise show "Loading image…" for ever; a slow one still may answer.
    let timer = 0;
    const wait = (): void => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => {
        if (!settled) showError();
      }, timeoutMs);
    };
    waitAgain.current = () => {
      if (settled) return;
      setLoaded({ image: null, status: 'loading', size: null });
      wait();
    };
    wait();
    load(crossOriginFor(src, window.location.origin));
    return () => {
      waitAgain.current = null;
      // A load still on its way (Retry, another URL) is stopped, so it takes no bandwidth from the next.
      if (!settled && current) {
        current.onload = current.onerror = null;
        current.removeAttribute('src');
      }
      settled = true;
      current = null;
      window.clearTimeout(timer);
    };
  }, [url, attempt, timeoutMs]);

  return { ...loaded, retry };
}
