import { useCallback, useEffect, useRef, useState } from 'react';

export type LoadState<T> = { status: 'loading' } | { status: 'ok'; data: T } | { status: 'error'; error: unknown };

const LOADING = { status: 'loading' } as const;

/**
 * Loads data for a page: runs `load` when `deps` change and on `reload()`, aborting the run before.
 * A reload keeps showing the data it has until the new data arrives (no flash of "Loading"). New deps
 * show "Loading" from their first render: each result is stored with the deps it was loaded for, so no
 * render ever shows one filter's or one project's data under another's controls and headings.
 */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, deps: readonly unknown[]) {
  const depsKey = JSON.stringify(deps);
  const [loaded, setLoaded] = useState<{ key: string; state: LoadState<T> }>({ key: depsKey, state: LOADING });
  const loadRef = useRef(load);
  loadRef.current = load;
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    const settle = (state: LoadState<T>) => !controller.signal.aborted && setLoaded({ key: depsKey, state });
    loadRef.current(controller.signal).then(
      (data) => settle({ status: 'ok', data }),
      (error: unknown) => settle({ status: 'error', error }),
    );
    return () => controller.abort();
  }, [generation, depsKey]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  const state: LoadState<T> = loaded.key === depsKey ? loaded.state : LOADING;
  return { state, reload };
}
