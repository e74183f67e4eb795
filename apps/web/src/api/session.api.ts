import type {
  ChangedPasswordResponse,
  DeletedAccountResponse,
  EndedSessionResponse,
  SessionInfo,
  SessionResponse,
  SignedOutSessionsResponse,
  UserResponse,
} from '@crowdbox/contracts';
import { api } from './client';

/** Session calls (API.md §4): the cookie they set is what authenticates every later call. */
export const sessionApi = {
  me: async (signal?: AbortSignal): Promise<UserResponse> => (await api.get<{ user: UserResponse }>('/api/session/me', signal)).user,
  logIn: (email: string, password: string) => api.post<SessionResponse>('/api/session/login', { email, password }),
  signUp: (email: string, password: string, name: string) => api.post<SessionResponse>('/api/session/signup', { email, password, name }),
  logOut: () => api.post<{ ok: boolean }>('/api/session/logout'),
  /** Ends every other session of the user too; this one stays signed in. */
  changePassword: (currentPassword: string, newPassword: string) =>
    api.post<ChangedPasswordResponse>('/api/session/password', { current_password: currentPassword, new_password: newPassword }),
  logOutOthers: () => api.post<SignedOutSessionsResponse>('/api/session/logout_others'),
  /** The user's live sessions, the most recently used first; `current` is this one. */
  sessions: (signal?: AbortSignal) => api.get<SessionInfo[]>('/api/session/sessions', signal),
  /** Ends one session at once (404 once it has ended); this one's own is a log-out. */
  endSession: (sessionId: string) => api.delete<EndedSessionResponse>(`/api/session/sessions/${encodeURIComponent(sessionId)}`),
  /** Deletes the account once the password is checked; every session of it ends, this one too. */
  deleteAccount: (password: string) => api.post<DeletedAccountResponse>('/api/session/delete_account', { password }),
  /** The user's data as one JSON file, for a download link (the server names the file). */
  exportUrl: '/api/session/export',
};
