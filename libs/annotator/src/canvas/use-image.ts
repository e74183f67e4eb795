import type { ImageSize } from '@crowdbox/boxes';
import { useEffect, useState } from 'react';
import { imageFrame } from './image-frame.util';

export type ImageStatus = 'loading' | 'loaded' | 'error';

export interface LoadedImage {
  image: HTMLImageElement | null;
  status: ImageStatus;
  /** The frame boxes are in (image-frame.util.ts), once loaded. */
  size: ImageSize | null;
}

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

export function useImage(url: string): LoadedImage {
  const [loaded, setLoaded] = useState<LoadedImage>({ image: null, status: 'loading', size: null });

  useEffect(() => {
    let cancelled = false;
    setLoaded({ image: null, status: 'loading', size: null });
    const load = (crossOrigin: 'anonymous' | undefined): void => {
      const img = new window.Image();
      if (crossOrigin) img.crossOrigin = crossOrigin;
      img.onload = () => {
        void imageFrame(img).then((size) => {
          if (!cancelled) setLoaded({ image: img, status: 'loaded', size });
        });
      };
      img.onerror = () => {
        if (cancelled) return;
        if (crossOrigin) load(undefined);
        else setLoaded({ image: null, status: 'error', size: null });
      };
      img.src = url;
    };
    load(crossOriginFor(url, window.location.origin));
    return () => {
      cancelled = true;
    };
  }, [url]);

  return loaded;
}
