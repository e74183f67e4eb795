import { useCallback, useEffect, useState } from 'react';
import type { RetryableImport } from './retryable-import';

export type ImportedState<T> = { status: 'loading' } | { status: 'loaded'; value: T } | { status: 'failed' };

const initial = <T>(chunk: RetryableImport<T>): ImportedState<T> =>
  chunk.loaded === undefined ? { status: 'loading' } : { status: 'loaded', value: chunk.loaded };

/** Loads a retryable import (retryable-import.ts) on mount; `retry()` tries again after a failure. */
export function useImported<T>(chunk: RetryableImport<T>): { state: ImportedState<T>; retry: () => void } {
  // Kept with the import it is about: React may reuse the component for another one (one route's page to
  // the next), which must not show the previous one's page for a moment.
  const [entry, setEntry] = useState(() => ({ chunk, state: initial(chunk) }));
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    chunk.load().then(
      (value) => live && setEntry((e) => (e.chunk === chunk && e.state.status === 'loaded' ? e : { chunk, state: { status: 'loaded', value } })),
      () => live && setEntry({ chunk, state: { status: 'failed' } }),
    );
    return () => {
      live = false;
    };
  }, [chunk, attempt]);

  const retry = useCallback(() => {
    setEntry({ chunk, state: { status: 'loading' } });
    setAttempt((a) => a + 1);
  }, [chunk]);
  return { state: entry.chunk === chunk ? entry.state : initial(chunk), retry };
}
