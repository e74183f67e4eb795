import type { ReactNode } from 'react';
import { errorItems } from '../../api/client';
import { ErrorList } from '../../shell/error-list';
import { Loading } from '../../shell/loading';
import type { LoadState } from '../lib/use-load';

interface Props<T> {
  state: LoadState<T>;
  label?: string;
  onRetry?: () => void;
  children: (data: T) => ReactNode;
}

/** Loading, the API's error with a retry, or the page's content. */
export function LoadView<T>({ state, label, onRetry, children }: Props<T>) {
  if (state.status === 'loading') return <Loading label={label} />;
  if (state.status === 'error') {
    return (
      <div>
        <ErrorList errors={errorItems(state.error)} title="This could not be loaded." />
        {onRetry && (
          <button type="button" className="button" onClick={onRetry}>
            Try again
          </button>
        )}
      </div>
    );
  }
  return <>{children(state.data)}</>;
}
