import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { Loading } from '../shell/loading';
import { useSession } from './session-context';

/** Renders its children for a signed-in user; sends everyone else to /login and back here afterwards. */
export function RequireSession({ children }: { children: ReactNode }) {
  const { state } = useSession();
  const location = useLocation();
  if (state.status === 'loading') return <Loading label="Checking your session" />;
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
