import { useCallback, useEffect, useRef, useState } from 'react';

export type AsyncState<T> = { status: 'loading' } | { status: 'ok'; data: T } | { status: 'error'; error: unknown };

/** Runs `load` on mount (and on `reload()`), aborting the previous run; the state says where it is. */
export function useAsync<T>(load: (signal: AbortSignal) => Promise<T>, deps: readonly unknown[] = []) {
  const [state, setState] = useState<AsyncState<T>>({ status: 'loading' });
  const loadRef = useRef(load);
  loadRef.current = load;
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    loadRef.current(controller.signal).then(
      (data) => !controller.signal.aborted && setState({ status: 'ok', data }),
      (error: unknown) => !controller.signal.aborted && setState({ status: 'error', error }),
    );
    return () => controller.abort();
  }, [generation, ...deps]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { state, reload };
}
