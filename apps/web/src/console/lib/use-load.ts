import { useCallback, useEffect, useRef, useState } from 'react';

export type LoadState<T> = { status: 'loading' } | { status: 'ok'; data: T } | { status: 'error'; error: unknown };

/**
 * Loads data for a page: runs `load` when `deps` change and on `reload()`, aborting the run before.
 * A reload keeps showing the data it has until the new data arrives (no flash of "Loading").
 */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, deps: readonly unknown[]) {
  const [state, setState] = useState<LoadState<T>>({ status: 'loading' });
  const loadRef = useRef(load);
  loadRef.current = load;
  const [generation, setGeneration] = useState(0);
  const depsKey = JSON.stringify(deps);
  const lastKey = useRef(depsKey);

  useEffect(() => {
    const controller = new AbortController();
    if (lastKey.current !== depsKey) {
      lastKey.current = depsKey;
      setState({ status: 'loading' });
    }
    loadRef.current(controller.signal).then(
      (data) => !controller.signal.aborted && setState({ status: 'ok', data }),
      (error: unknown) => !controller.signal.aborted && setState({ status: 'error', error }),
    );
    return () => controller.abort();
  }, [generation, depsKey]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { state, reload, setState };
}
