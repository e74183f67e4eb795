import type { LoginBody, SignupBody, UserResponse } from '@crowdbox/contracts';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ApiException } from '../common/errors/api.exception';
import { PG_SQLSTATE, sqlConstraint, sqlState } from '../common/errors/sql-state';
import { randomSecret, sha256Hex } from '../common/crypto.util';
import { TtlCache } from '../common/ttl-cache';
import { newSigningSecret } from '../webhooks/signing';
import type { SessionPrincipal } from '../common/http/principal';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { Account } from './account.entity';
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

/** Sign-up, log-in, log-out and resolving a session token. */
@Injectable()
export class SessionsService {
  /**
   * Resolved sessions for CACHE_TTL_MS (the worker app polls and submits often). Logging out clears the
   * entry on this node at once; other nodes stop accepting the token within CACHE_TTL_MS.
   */
  private readonly cache: TtlCache<string, SessionPrincipal>;
  private readonly logger = new Logger(SessionsService.name);
  /** What new password hashes cost (PASSWORD_SCRYPT_P). */
  private readonly scrypt: ScryptParams;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly throttle: LoginThrottle,
    private readonly signups: SignupThrottle,
  ) {
    this.cache = new TtlCache(config.CACHE_TTL_MS, MAX_CACHED_SESSIONS);
    this.scrypt = scryptParams(config.PASSWORD_SCRYPT_P);
  }

  /** Creates the account, its user and a first session, all or nothing. `address`: the client's (SignupThrottle). */
  async signUp(input: SignupBody, address: string): Promise<StartedSession> {
    return this.signups.limit(address, () => this.createAccount(input));
  }

  private async createAccount(input: SignupBody): Promise<StartedSession> {
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
      return this.start(tx.getRepository(Session), user);
    }).catch((error: unknown) => {
      // Two signups with one email at once: both passed the check above, the second meets the constraint.
      if (sqlState(error) === PG_SQLSTATE.uniqueViolation && sqlConstraint(error) === 'uq_users_email') throw taken();
      throw error;
    });
  }

  /** `address`: the client's, for the failed log-in limit (LoginThrottle). */
  async logIn(input: LoginBody, address: string): Promise<StartedSession> {
    // The guess is counted before the password is checked, so parallel guesses cannot outrun the count.
    const attempt = await this.throttle.reserve(input.email, address);
    let user: User | null;
    let right: boolean;
    try {
      user = await this.db.getRepository(User).findOne({ where: { email: input.email } });
      right = await verifyUserPassword(input.password, user?.passwordHash, this.scrypt);
    } catch (error) {
      await attempt.release();
      throw error;
    }
    // Same answer, in the same time, for an unknown email and a wrong password, so emails cannot be probed.
    // A wrong password keeps the point it took.
    if (!right || !user) throw ApiException.of(401, 'root', 'email or password is wrong');
    await attempt.succeeded();
    if (needsRehash(user.passwordHash, this.scrypt)) await this.rehash(user, input.password);
    return this.start(this.db.getRepository(Session), user);
  }

  /**
   * A hash made with less work than new ones get (PASSWORD_SCRYPT_P raised since), made again now that
   * the password is at hand: the only moment it can be. Only if the hash is still the one checked.
   */
  private async rehash(user: User, password: string): Promise<void> {
    try {
      const hash = await hashPassword(password, this.scrypt);
      await this.db.query('UPDATE users SET password_hash = $2 WHERE id = $1 AND password_hash = $3', [user.id, hash, user.passwordHash]);
    } catch (error) {
      // The log-in itself succeeded; the upgrade waits for the next one.
      this.logger.warn(`re-hashing the password of user ${user.id} failed: ${(error as Error).message}`);
    }
  }

  async logOut(sessionId: string): Promise<void> {
    await this.db.getRepository(Session).delete({ id: sessionId });
    this.cache.deleteWhere((principal) => principal.sessionId === sessionId);
  }

  /** The principal of a live session token, or undefined. */
  async resolve(token: string): Promise<SessionPrincipal | undefined> {
    const hash = sha256Hex(token);
    return this.cache.get(hash, () => this.lookUp(hash));
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

  private async start(sessions: ReturnType<DataSource['getRepository']>, user: User): Promise<StartedSession> {
    const token = `cbs_${randomSecret(32)}`;
    const expiresAt = new Date(Date.now() + this.config.SESSION_TTL_DAYS * 86_400_000);
    await sessions.insert({ id: randomUUID(), userId: user.id, tokenHash: sha256Hex(token), expiresAt });
    return { user, token, expiresAt };
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
