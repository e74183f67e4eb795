import { useEffect } from 'react';
import type { RefObject } from 'react';
import type { StageSize } from '@crowdbox/boxes';

/** Reports the element's content size whenever it changes (and once at mount); zero sizes are skipped. */
export function useStageSize(ref: RefObject<HTMLElement | null>, onSize: (size: StageSize) => void): void {
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const report = (): void => {
      const width = Math.floor(el.clientWidth);
      const height = Math.floor(el.clientHeight);
      if (width > 0 && height > 0) onSize({ width, height });
    };
    report();
    if (typeof ResizeObserver === 'undefined') {
      window.addEventListener('resize', report);
      return () => window.removeEventListener('resize', report);
    }
    const observer = new ResizeObserver(report);
    observer.observe(el);
    return () => observer.disconnect();
    // onSize is expected to be stable (a store dispatch).
  }, [ref, onSize]);
}
