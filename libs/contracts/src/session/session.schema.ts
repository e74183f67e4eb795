import { z } from 'zod';
import { objectBody, text } from '../schema-helpers';

const email = z
  .string({ error: 'must be an email address' })
  .trim()
  .toLowerCase()
  .max(254, { error: 'must be at most 254 characters' })
  .pipe(z.email({ error: 'must be an email address' }));

const password = z
  .string({ error: 'must be a string' })
  .min(8, { error: 'must be at least 8 characters' })
  .max(200, { error: 'must be at most 200 characters' });

/**
 * RFC 2606 reserves `.invalid`: no such address receives mail, and a deleted account's email is rewritten
 * to one (`deleted-<user id>@deleted.invalid`), which a sign-up must not be able to take first.
 */
const newEmail = email.refine((value) => !value.endsWith('.invalid'), { error: 'cannot receive mail (.invalid is a reserved domain)' });

export const signupBodySchema = objectBody(z.object({ email: newEmail, password, name: text(100, 'a name') }));
export type SignupBody = z.output<typeof signupBodySchema>;

export const loginBodySchema = objectBody(z.object({ email, password: z.string({ error: 'must be a string' }) }));
export type LoginBody = z.output<typeof loginBodySchema>;

/** The new password follows sign-up's rules; the current one is only checked, so any string is read. */
export const changePasswordBodySchema = objectBody(
  z.object({ current_password: z.string({ error: 'must be a string' }), new_password: password }),
);
export type ChangePasswordBody = z.output<typeof changePasswordBodySchema>;

/** `POST /api/session/delete_account`: the password is checked again before the account is deleted. */
export const deleteAccountBodySchema = objectBody(z.object({ password: z.string({ error: 'must be a string' }) }));
export type DeleteAccountBody = z.output<typeof deleteAccountBodySchema>;

/** `POST /api/session/delete_account`: the account is deleted and every session of it ended. */
export interface DeletedAccountResponse {
  deleted: true;
}

/** `POST /api/session/logout_others`: how many of the user's other sessions were ended. */
export interface SignedOutSessionsResponse {
  signed_out_sessions: number;
}

/**
 * One of the user's live sessions, `GET /api/session/sessions` (docs/decisions.md, "Signed-in devices"):
 * what tells it apart is the browser and address it signed in from, and when it was last used.
 */
export interface SessionInfo {
  id: string;
  created_at: string;
  expires_at: string;
  /** Within a minute or so; null until first used after sign-in, and for sessions older than the record. */
  last_used_at: string | null;
  user_agent: string | null;
  client_address: string | null;
  /** The session that asked. */
  current: boolean;
}

/** `DELETE /api/session/sessions/:id`: the session ended; `current` when it was the caller's own (signed out). */
export interface EndedSessionResponse {
  id: string;
  current: boolean;
}

/**
 * `POST /api/session/password`: the password changed, every other session ended, and the asking one
 * replaced: `token` is its successor (also set as the cookie), the old token no longer works.
 */
export interface ChangedPasswordResponse extends SignedOutSessionsResponse {
  ok: true;
  token: string;
}

export interface UserResponse {
  id: string;
  account_id: string;
  email: string;
  name: string;
  created_at: string;
}

export interface SessionResponse {
  user: UserResponse;
  token: string;
}
