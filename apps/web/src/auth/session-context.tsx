import type { ErrorItem, UserResponse } from '@crowdbox/contracts';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { ApiError, errorItems, setUnauthorizedHandler } from '../api/client';
import { sessionApi } from '../api/session.api';

export type SessionState =
  | { status: 'loading'; user: null }
  /** `ended`: the server ended the session itself, and why (the log-in page says so). */
  | { status: 'anonymous'; user: null; ended?: 'account-deleted' }
  | { status: 'signed-in'; user: UserResponse }
  /**
   * GET /api/session/me failed otherwise than with 401 (a 502 during a deploy, a network error): who is
   * signed in is not known, and `errors` say why. Not `anonymous`: that would send a signed-in user to log in.
   */
  | { status: 'unknown'; user: null; errors: ErrorItem[] };

export interface Session {
  state: SessionState;
  /** The signed-in user, or null while loading / signed out / unknown. */
  user: UserResponse | null;
  logIn: (email: string, password: string) => Promise<UserResponse>;
  signUp: (email: string, password: string, name: string) => Promise<UserResponse>;
  /** Signed out once the server has ended the session (or answers 401); rejects, still signed in, when it did not. */
  logOut: () => Promise<void>;
  /** Re-reads /api/session/me (after a 401 elsewhere, for instance). */
  refresh: () => Promise<void>;
  /** The server has ended this session itself (the account was deleted): signed out, without asking it. */
  signedOut: (why: 'account-deleted') => void;
}

const SessionContext = createContext<Session | null>(null);

/** Holds who is signed in, read once from GET /api/session/me and updated by log in / sign up / log out. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: 'loading', user: null });

  const refresh = useCallback(async (signal?: AbortSignal) => {
    try {
      const user = await sessionApi.me(signal);
      setState({ status: 'signed-in', user });
    } catch (error) {
      if (signal?.aborted) return;
      // Only a 401 says there is no session; any other failure says nothing about it.
      if (error instanceof ApiError && error.status === 401) {
        setState({ status: 'anonymous', user: null });
        return;
      }
      console.warn('Could not read the session:', error instanceof Error ? error.message : error);
      setState({ status: 'unknown', user: null, errors: errorItems(error) });
    }
  }, []);

  useEffect(() => {
    setUnauthorizedHandler(() => setState({ status: 'anonymous', user: null }));
    return () => setUnauthorizedHandler(null);
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    void refresh(controller.signal);
    return () => controller.abort();
  }, [refresh]);

  const session = useMemo<Session>(
    () => ({
      state,
      user: state.user,
      refresh: () => refresh(),
      signedOut: (why) => setState({ status: 'anonymous', user: null, ended: why }),
      logIn: async (email, password) => {
        const { user } = await sessionApi.logIn(email, password);
        setState({ status: 'signed-in', user });
        return user;
      },
      signUp: async (email, password, name) => {
        const { user } = await sessionApi.signUp(email, password, name);
        setState({ status: 'signed-in', user });
        return user;
      },
      logOut: async () => {
        try {
          await sessionApi.logOut();
        } catch (error) {
          // Only a 401 says the session has ended already. Any other failure (a 503, no answer) left it live,
          // and its httpOnly cookie with it: showing the user signed out would hide a session that a reload
          // signs back in, so they stay signed in and the caller says it failed.
          if (!(error instanceof ApiError && error.status === 401)) throw error;
        }
        setState({ status: 'anonymous', user: null });
      },
    }),
    [state, refresh],
  );

  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

/** The current session; must be used below <SessionProvider>. */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession() is used outside <SessionProvider>');
  return session;
}
