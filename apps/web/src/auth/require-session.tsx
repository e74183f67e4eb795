import type { ErrorItem } from '@crowdbox/contracts';
import { useState, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { ErrorList } from '../shell/error-list';
import { Loading } from '../shell/loading';
import { useSession } from './session-context';

/** Renders its children for a signed-in user; sends everyone else to /login and back here afterwards. */
export function RequireSession({ children }: { children: ReactNode }) {
  const { state } = useSession();
  const location = useLocation();
  if (state.status === 'loading') return <Loading label="Checking your session" />;
  if (state.status === 'unknown') return <SessionUnknown errors={state.errors} />;
  if (state.status === 'anonymous') {
    const next = `${location.pathname}${location.search}`;
    return <Navigate to={`/login?next=${encodeURIComponent(next)}`} replace />;
  }
  return <>{children}</>;
}

/** Only same-site paths are followed after log in, so `?next=` cannot send people elsewhere. */
export function safeNext(next: string | null, fallback = '/work'): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return fallback;
  return next;
}

/**
 * The session could not be read (the server down or unreachable, not a 401): the user may well be signed
 * in, so the page says what happened and offers to ask again rather than sending them to log in.
 */
function SessionUnknown({ errors }: { errors: ErrorItem[] }) {
  const { refresh } = useSession();
  const [busy, setBusy] = useState(false);
  const retry = async () => {
    if (busy) return;
    setBusy(true);
    try {
      await refresh();
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="page narrow" data-testid="session-unknown">
      <h1>Could not check your session</h1>
      <ErrorList errors={errors} title="The server did not say whether you are signed in." />
      {/* aria-disabled, not disabled, while asking: a disabled button loses the focus to the page's body. */}
      <button type="button" className="button primary" aria-disabled={busy || undefined} onClick={() => void retry()}>
        {busy ? 'Checking…' : 'Try again'}
      </button>
    </div>
  );
}
