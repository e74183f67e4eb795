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

export const signupBodySchema = objectBody(z.object({ email, password, name: text(100, 'a name') }));
export type SignupBody = z.output<typeof signupBodySchema>;

export const loginBodySchema = objectBody(z.object({ email, password: z.string({ error: 'must be a string' }) }));
export type LoginBody = z.output<typeof loginBodySchema>;

/** The new password follows sign-up's rules; the current one is only checked, so any string is read. */
export const changePasswordBodySchema = objectBody(
  z.object({ current_password: z.string({ error: 'must be a string' }), new_password: password }),
);
export type ChangePasswordBody = z.output<typeof changePasswordBodySchema>;

/** `POST /api/session/logout_others`: how many of the user's other sessions were ended. */
export interface SignedOutSessionsResponse {
  signed_out_sessions: number;
}

/** `POST /api/session/password`: the password changed, and every other session ended. */
export interface ChangedPasswordResponse extends SignedOutSessionsResponse {
  ok: true;
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
