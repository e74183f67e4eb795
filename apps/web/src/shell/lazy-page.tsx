import { useEffect, useRef, type ComponentType } from 'react';
import { useLocation } from 'react-router';
import { Loading } from './loading';
import type { RetryableImport } from './retryable-import';
import { useImported } from './use-imported';

/**
 * A route's page loaded on first visit (the console, the account page, the history), as the route's
 * element rather than through the route's `lazy`: react-router keeps a failed `lazy` for the life of the
 * page and shows its bare error screen in place of the whole app. Here a failed download shows a message
 * inside the app's frame (the header and its links still work) with Try again, and a reload as last resort.
 */
export function LazyPage({ page }: { page: RetryableImport<ComponentType> }) {
  const { state, retry } = useImported(page);
  const { pathname, search, hash } = useLocation();
  const retried = useRef(false);

  // The Try again button goes with the message: the focus goes to the page's start, as after a navigation.
  useEffect(() => {
    if (state.status !== 'loaded' || !retried.current) return;
    retried.current = false;
    document.getElementById('main')?.focus({ preventScroll: true });
  }, [state.status]);

  if (state.status === 'loaded') return <state.value />;
  if (state.status === 'loading') return <Loading />;
  return (
    <div className="page narrow">
      <h1>This page did not load</h1>
      <div className="alert warning" role="alert">
        <p>
          Part of Crowdbox could not be downloaded; your connection may have dropped. Try again, and if it keeps failing, reload the page.
        </p>
      </div>
      <div className="actions">
        <button
          type="button"
          className="button primary"
          autoFocus
          onClick={() => {
            retried.current = true;
            retry();
          }}
        >
          Try again
        </button>
        <a className="button ghost" href={`${pathname}${search}${hash}`}>
          Reload the page
        </a>
      </div>
    </div>
  );
}
