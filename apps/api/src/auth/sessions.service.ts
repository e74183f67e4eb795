import type { ChangePasswordBody, EndedSessionResponse, LoginBody, SessionInfo, SignupBody, UserResponse } from '@crowdbox/contracts';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, IsNull, type EntityManager } from 'typeorm';
import { ApiException } from '../common/errors/api.exception';
import { PG_SQLSTATE, sqlConstraint, sqlState } from '../common/errors/sql-state';
import { isUuid, randomSecret, sha256Hex } from '../common/crypto.util';
import { LastUseRecorder } from '../common/last-use';
import { TtlCache } from '../common/ttl-cache';
import { newSigningSecret } from '../webhooks/signing';
import type { SessionPrincipal } from '../common/http/principal';
import { APP_CONFIG } from '../config/config.module';
import { CacheInvalidation } from '../redis/cache-invalidation';
import type { AppConfig } from '../config/config.schema';
import { Account } from './account.entity';
import { SecretLookupThrottle } from './secret-lookup-throttle';
import { LoginThrottle } from './login-throttle';
import { hashPassword, needsRehash, scryptParams, verifyUserPassword, type ScryptParams } from './password.util';
import { Session } from './session.entity';
import { SignupThrottle } from './signup-throttle';
import { User } from './user.entity';

export interface StartedSession {
  user: User;
  token: string;
  expiresAt: Date;
}

const MAX_CACHED_SESSIONS = 50_000;
/** Tokens that match no live session, cached apart so they can never push a live one out. */
const MAX_CACHED_UNKNOWN = 10_000;
const UNKNOWN = Object.freeze({});
/**
 * Live sessions one user may hold; a sign-in beyond it ends the least recently used. A script that logs
 * in on each run and never logs out would otherwise pile up sessions for SESSION_TTL_DAYS, and the
 * account page lists them all (docs/decisions.md, "Signed-in devices").
 */
export const MAX_SESSIONS_PER_USER = 100;

/** A User-Agent is kept to this many characters: enough to name any real browser, not a place to store text. */
export const MAX_USER_AGENT = 512;

/** Where a session signs in from, kept so the user can tell their sessions apart (docs/decisions.md, "Signed-in devices"). */
export interface SessionDevice {
  userAgent: string | undefined;
  clientAddress: string;
}

const deviceColumns = (device: SessionDevice) => ({ userAgent: device.userAgent?.slice(0, MAX_USER_AGENT) || null, clientAddress: device.clientAddress });

interface SessionInfoRow {
  id: string;
  created_at: Date;
  expires_at: Date;
  last_used_at: Date | null;
  user_agent: string | null;
  client_address: string | null;
}

/** The 401 of a token whose session has ended (SessionGuard), and of a request it let through that ended meanwhile. */
export function sessionEnded(): ApiException {
  return ApiException.of(401, 'root', 'the session has expired or was logged out; log in again');
}

/**
 * Holds the account's user row FOR SHARE in `tx` for what `tx` goes on to create for the account (an
 * API key, a project); the 401 of an ended session when the account is deleted. The account's deletion
 * holds that row FOR NO KEY UPDATE from its first statement to its commit, and until then the user's
 * sessions still pass SessionGuard: a creation that comes while it runs waits for it and then finds the
 * account deleted, one that came first makes the deletion wait and is revoked or archived by it. Without
 * this, a key or project inserted after the deletion had looked outlived it. As startIfUnchanged does for
 * a log-in, in the order of every writer here: the user row before the account's.
 */
export async function holdUndeletedAccount(tx: EntityManager, accountId: string): Promise<void> {
  const rows: unknown[] = await tx.query('SELECT 1 FROM users WHERE account_id = $1 AND deleted_at IS NULL FOR SHARE', [accountId]);
  if (rows.length === 0) throw sessionEnded();
}

/** Sign-up, log-in, log-out, checking and changing the password, ending sessions, and resolving a session token. */
@Injectable()
export class SessionsService {
  /**
   * Resolved sessions for CACHE_TTL_MS (the worker app polls and submits often). Ending a session (a
   * log-out, logout_others, a password change, the account's deletion) clears its entry in every process
   * at once (CacheInvalidation), by session id.
   */
  private readonly cache: TtlCache<string, SessionPrincipal>;
  /**
   * Tokens that match no live session, by hash, as ApiKeysService keeps unknown secrets: a browser that
   * keeps sending an ended session's cookie costs one look-up (and one of its address's points) per
   * CACHE_TTL_MS, not one per request. Nothing to forget: a token found unknown never becomes a session
   * (a new session has a new random token, given out only once its row has committed).
   */
  private readonly unknown: TtlCache<string, object>;
  private readonly logger = new Logger(SessionsService.name);
  private readonly lastUse: LastUseRecorder;
  /** What new password hashes cost (PASSWORD_SCRYPT_P). */
  private readonly scrypt: ScryptParams;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly throttle: LoginThrottle,
    private readonly signups: SignupThrottle,
    private readonly invalidation: CacheInvalidation,
    private readonly lookups: SecretLookupThrottle,
  ) {
    this.cache = new TtlCache(config.CACHE_TTL_MS, MAX_CACHED_SESSIONS);
    this.unknown = new TtlCache(config.CACHE_TTL_MS, MAX_CACHED_UNKNOWN);
    invalidation.register('sessions', {
      forget: (ids) => {
        const ended = new Set(ids);
        this.cache.deleteWhere((principal) => ended.has(principal.sessionId));
      },
      clear: () => this.cache.clear(),
    });
    this.scrypt = scryptParams(config.PASSWORD_SCRYPT_P);
    this.lastUse = new LastUseRecorder(db, 'sessions', this.logger);
  }

  /** Creates the account, its user and a first session, all or nothing. The device's address is the client's (SignupThrottle). */
  async signUp(input: SignupBody, device: SessionDevice): Promise<StartedSession> {
    return this.signups.limit(device.clientAddress, () => this.createAccount(input, device));
  }

  private async createAccount(input: SignupBody, device: SessionDevice): Promise<StartedSession> {
    const passwordHash = await hashPassword(input.password, this.scrypt);
    const taken = () => ApiException.unprocessable('email', 'is already registered; log in instead');
    return this.db.transaction(async (tx) => {
      if (await tx.getRepository(User).exists({ where: { email: input.email } })) throw taken();
      const account = await tx.getRepository(Account).save({
        id: randomUUID(),
        name: input.name,
        webhookSigningSecret: newSigningSecret(),
      });
      const user = await tx.getRepository(User).save({
        id: randomUUID(),
        accountId: account.id,
        email: input.email,
        name: input.name,
        passwordHash,
      });
      return this.start(tx.getRepository(Session), user, device);
    }).catch((error: unknown) => {
      // Two signups with one email at once: both passed the check above, the second meets the constraint.
      if (sqlState(error) === PG_SQLSTATE.uniqueViolation && sqlConstraint(error) === 'uq_users_email') throw taken();
      throw error;
    });
  }

  /** The device's address is the client's, for the failed log-in limit (LoginThrottle). */
  async logIn(input: LoginBody, device: SessionDevice): Promise<StartedSession> {
    // The guess is counted before the password is checked, so parallel guesses cannot outrun the count.
    const attempt = await this.throttle.reserve(input.email, device.clientAddress);
    let user: User | null;
    let right: boolean;
    try {
      // A deleted account's email is no one's (deleted-<id>@deleted.invalid): it is an unknown email here too.
      user = await this.db.getRepository(User).findOne({ where: { email: input.email, deletedAt: IsNull() } });
      right = await verifyUserPassword(input.password, user?.passwordHash, this.scrypt);
    } catch (error) {
      await attempt.release();
      throw error;
    }
    // Same answer, in the same time, for an unknown email and a wrong password, so emails cannot be probed.
    // A wrong password keeps the point it took.
    if (!right || !user) throw ApiException.of(401, 'root', 'email or password is wrong');
    await attempt.succeeded();
    const stored = needsRehash(user.passwordHash, this.scrypt) ? await this.rehash(user, input.password) : user.passwordHash;
    const started = await this.startIfUnchanged(user, stored, device);
    // The password was changed while this one was checked: it was right, but it is no longer the password.
    if (!started) throw ApiException.of(401, 'root', 'email or password is wrong');
    return started;
  }

  /**
   * A hash made with less work than new ones get (PASSWORD_SCRYPT_P raised since), made again now that
   * the password is at hand: the only moment it can be. Only if the hash is still the one checked.
   * Answers the hash the password now has: the new one, or the one checked when it was not replaced.
   */
  private async rehash(user: User, password: string): Promise<string> {
    try {
      const hash = await hashPassword(password, this.scrypt);
      const [, replaced]: [unknown, number] = await this.db.query('UPDATE users SET password_hash = $2 WHERE id = $1 AND password_hash = $3', [
        user.id,
        hash,
        user.passwordHash,
      ]);
      return replaced ? hash : user.passwordHash;
    } catch (error) {
      // The log-in itself succeeded; the upgrade waits for the next one.
      this.logger.warn(`re-hashing the password of user ${user.id} failed: ${(error as Error).message}`);
      return user.passwordHash;
    }
  }

  /**
   * Checks the current password, then stores the new one (hashed with today's parameters), ends every
   * other session of the user and replaces the asking one with a new session of the same device, in one
   * transaction; answers how many other live sessions ended, and the new session. The asking token ends
   * too: whoever copied it (the reason a password is changed) is locked out with the rest, while this
   * device goes on signed in with the successor.
   */
  async changePassword(
    session: SessionPrincipal,
    input: ChangePasswordBody,
    device: SessionDevice,
  ): Promise<{ signedOut: number; started: StartedSession }> {
    const user = await this.checkPassword(session, input.current_password, device.clientAddress, 'current_password');
    const hash = await hashPassword(input.new_password, this.scrypt);
    const { others, started } = await this.db.transaction(async (tx) => {
      const [, changed]: [unknown, number] = await tx.query('UPDATE users SET password_hash = $2 WHERE id = $1 AND password_hash = $3', [
        user.id,
        hash,
        user.passwordHash,
      ]);
      // Another change (or a re-hash) committed since the check: the password checked may be the old one.
      if (!changed) throw ApiException.of(409, 'root', 'the password was changed meanwhile; enter the new one as the current password');
      const ended = await this.deleteSessions(tx, session.userId, session.sessionId);
      await tx.query('DELETE FROM sessions WHERE id = $1', [session.sessionId]);
      return { others: ended, started: await this.start(tx.getRepository(Session), user, device) };
    });
    this.forgetSessions([...others.ids, session.sessionId]);
    return { signedOut: others.ended, started };
  }

  /**
   * The signed-in user, once `password` is checked to be theirs (a password change, the account's
   * deletion); a wrong one is the 422 on `field` and nothing else happens. It counts as a failed log-in
   * for the email from `address` (LoginThrottle), so a session left open somewhere cannot be used to
   * guess the password at leisure. The answer's hash is the one checked: a writer that relies on the check
   * changes the row only while it still holds that hash.
   */
  async checkPassword(session: SessionPrincipal, password: string, address: string, field: string): Promise<User> {
    const attempt = await this.throttle.reserve(session.email, address);
    let user: User;
    let right: boolean;
    try {
      user = await this.user(session.userId);
      right = await verifyUserPassword(password, user.passwordHash, this.scrypt);
    } catch (error) {
      await attempt.release();
      throw error;
    }
    // Keeps the point it took, as a failed log-in does.
    if (!right) throw ApiException.unprocessable(field, 'is wrong');
    await attempt.succeeded();
    return user;
  }

  /** Ends every session of the user but this one; answers how many live ones ended. */
  async logOutOthers(session: SessionPrincipal): Promise<number> {
    const deleted = await this.deleteSessions(this.db.manager, session.userId, session.sessionId);
    this.forgetSessions(deleted.ids);
    return deleted.ended;
  }

  /**
   * Ends every session of the user in `tx` (the account's deletion, which holds the user's row); answers
   * what to run once `tx` has committed: this process forgets them, as for log-out.
   */
  async endAll(tx: EntityManager, userId: string): Promise<() => void> {
    const { ids } = await this.deleteSessions(tx, userId);
    return () => this.forgetSessions(ids);
  }

  /** Deletes the user's sessions, all of them or all but `keep`; answers their ids and how many live ones ended. */
  private async deleteSessions(db: EntityManager, userId: string, keep: string | null = null): Promise<{ ids: string[]; ended: number }> {
    const [rows]: [Array<{ id: string; live: boolean }>, number] = await db.query(
      'DELETE FROM sessions WHERE user_id = $1 AND id IS DISTINCT FROM $2 RETURNING id, expires_at > now() AS live',
      [userId, keep],
    );
    // Expired rows the hourly pruning has not reached yet were signed out already.
    return { ids: rows.map(({ id }) => id), ended: rows.filter(({ live }) => live).length };
  }

  /**
   * Once the delete has committed (a load before that could cache a row still there): the ended sessions
   * stop working in every process at once, as for log-out.
   */
  private forgetSessions(ids: string[]): void {
    this.invalidation.forget('sessions', ids);
  }

  async logOut(sessionId: string): Promise<void> {
    await this.db.getRepository(Session).delete({ id: sessionId });
    this.forgetSessions([sessionId]);
  }

  /**
   * The principal of a live session token, or undefined; its use is recorded (LastUseRecorder). 429 when
   * neither cache knows the token and `clientAddress` has sent too many unknown ones (the database is not
   * asked): a made-up token costs a look-up, as a made-up API key does (SecretLookupThrottle).
   */
  async resolve(token: string, clientAddress: string): Promise<SessionPrincipal | undefined> {
    const hash = sha256Hex(token);
    let principal = this.cache.peek(hash);
    if (!principal) {
      if (this.unknown.peek(hash)) return undefined;
      principal = await this.lookUpCounted(hash, clientAddress);
    }
    if (principal) this.lastUse.record(principal.sessionId);
    return principal;
  }

  /**
   * Asks the database, counted against the address (SecretLookupThrottle). Inside the cache's load, so
   * requests with the same token at once (a page's parallel calls) share one look-up and one count.
   */
  private async lookUpCounted(hash: string, clientAddress: string): Promise<SessionPrincipal | undefined> {
    const principal = await this.cache.get(hash, () => this.lookups.counted('sessionToken', clientAddress, () => this.lookUp(hash)));
    if (!principal) this.unknown.set(hash, UNKNOWN);
    return principal;
  }

  /** GET /api/session/sessions: the user's live sessions, the most recently used first. */
  async list(session: SessionPrincipal): Promise<SessionInfo[]> {
    const rows: SessionInfoRow[] = await this.db.query(
      `SELECT id, created_at, expires_at, last_used_at, user_agent, client_address FROM sessions
        WHERE user_id = $1 AND expires_at > now()
        ORDER BY coalesce(last_used_at, created_at) DESC, id`,
      [session.userId],
    );
    return rows.map((row) => ({
      id: row.id,
      created_at: row.created_at.toISOString(),
      expires_at: row.expires_at.toISOString(),
      last_used_at: row.last_used_at?.toISOString() ?? null,
      user_agent: row.user_agent,
      client_address: row.client_address,
      current: row.id === session.sessionId,
    }));
  }

  /**
   * DELETE /api/session/sessions/:id: ends one of the user's sessions (a lost or shared device), at once
   * in every process, as a log-out. Another user's session, an ended one or no session is 404.
   */
  async end(session: SessionPrincipal, id: string): Promise<EndedSessionResponse> {
    // TypeORM answers a DELETE … RETURNING as [rows, count].
    const [rows]: [Array<{ id: string }>, number] = isUuid(id)
      ? await this.db.query('DELETE FROM sessions WHERE id = $1 AND user_id = $2 AND expires_at > now() RETURNING id', [id, session.userId])
      : [[], 0];
    if (!rows[0]) throw ApiException.notFound('session not found');
    this.forgetSessions([id]);
    return { id, current: id === session.sessionId };
  }

  private async lookUp(tokenHash: string): Promise<SessionPrincipal | undefined> {
    const rows: Array<{ session_id: string; user_id: string; account_id: string; email: string; name: string }> =
      await this.db.query(
        `SELECT s.id AS session_id, u.id AS user_id, u.account_id, u.email, u.name
           FROM sessions s JOIN users u ON u.id = s.user_id
          WHERE s.token_hash = $1 AND s.expires_at > now()`,
        [tokenHash],
      );
    const row = rows[0];
    if (!row) return undefined;
    return { sessionId: row.session_id, userId: row.user_id, accountId: row.account_id, email: row.email, name: row.name };
  }

  async user(userId: string): Promise<User> {
    return this.db.getRepository(User).findOneOrFail({ where: { id: userId } });
  }

  private async start(sessions: ReturnType<DataSource['getRepository']>, user: User, device: SessionDevice): Promise<StartedSession> {
    const started = this.newSession(user);
    await sessions.insert({ id: randomUUID(), userId: user.id, tokenHash: sha256Hex(started.token), expiresAt: started.expiresAt, ...deviceColumns(device) });
    return started;
  }

  /**
   * A log-in's session, made only while the user's hash is still `stored`, the one its password was
   * checked against (or that one's re-hash); undefined otherwise. A log-in with the old password that
   * was being checked while the password changed would otherwise get a session after the change had
   * ended the others, and a guesser logging in again and again would always have one in flight.
   * FOR SHARE: a change not yet committed holds the user row, so the check waits for it and then reads
   * the committed hash. Without the lock it read the old hash while the change was in flight, and its
   * session was inserted after the change's DELETE had looked: it outlived the change.
   */
  private async startIfUnchanged(user: User, stored: string, device: SessionDevice): Promise<StartedSession | undefined> {
    const started = this.newSession(user);
    const { userAgent, clientAddress } = deviceColumns(device);
    const rows: unknown[] = await this.db.query(
      `INSERT INTO sessions (id, user_id, token_hash, expires_at, user_agent, client_address)
       SELECT $1, $2, $3, $4, $6, $7 WHERE EXISTS (SELECT 1 FROM users WHERE id = $2 AND password_hash = $5 FOR SHARE)
       RETURNING id`,
      [randomUUID(), user.id, sha256Hex(started.token), started.expiresAt, stored, userAgent, clientAddress],
    );
    if (rows.length === 0) return undefined;
    await this.endBeyondLimit(user.id);
    return started;
  }

  /** Ends the user's least recently used sessions beyond MAX_SESSIONS_PER_USER, as a log-out would. */
  private async endBeyondLimit(userId: string): Promise<void> {
    const [ended]: [Array<{ id: string }>, number] = await this.db.query(
      `DELETE FROM sessions WHERE id IN (
         SELECT id FROM sessions WHERE user_id = $1
          ORDER BY coalesce(last_used_at, created_at) DESC, created_at DESC, id OFFSET ${MAX_SESSIONS_PER_USER})
       RETURNING id`,
      [userId],
    );
    if (ended.length > 0) this.forgetSessions(ended.map(({ id }) => id));
  }

  private newSession(user: User): StartedSession {
    const token = `cbs_${randomSecret(32)}`;
    return { user, token, expiresAt: new Date(Date.now() + this.config.SESSION_TTL_DAYS * 86_400_000) };
  }
}

export function toUserResponse(user: User): UserResponse {
  return {
    id: user.id,
    account_id: user.accountId,
    email: user.email,
    name: user.name,
    created_at: user.createdAt.toISOString(),
  };
}
