import type { DeleteAccountBody } from '@crowdbox/contracts';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApiException } from '../common/errors/api.exception';
import type { SessionPrincipal } from '../common/http/principal';
import { inTimedTransaction } from '../database/timed-transaction';
import { CANCEL_LIMIT_MS } from '../projects/cancel-outstanding';
import { ProjectsService } from '../projects/projects.service';
import { CheckoutsService } from '../work/checkouts.service';
import { ApiKeysService } from './api-keys.service';
import { UNUSABLE_PASSWORD_HASH } from './password.util';
import { SessionsService } from './sessions.service';

/**
 * A user deletes their own account (docs/decisions.md, "Deleting an account"): a soft delete that erases
 * who they were and ends what they do, and keeps what other people's work and money rest on.
 */
@Injectable()
export class AccountDeletionService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly sessions: SessionsService,
    private readonly apiKeys: ApiKeysService,
    private readonly projects: ProjectsService,
    private readonly checkouts: CheckoutsService,
  ) {}

  /**
   * Checks the password as a password change does (a wrong one is the 422 on `password` and a failed
   * log-in), then, in one transaction that holds the user's row: releases the worker's active leases,
   * archives every project of the account (cancelling its outstanding tasks), revokes its API keys, ends
   * its sessions, and rewrites the user and the account so nothing names the person: the email becomes
   * `deleted-<user id>@deleted.invalid` (no one's, and unique as the constraint wants), the names empty,
   * the password hash one no password matches. Tasks, submissions, results and the webhook log stay.
   * The row lock makes a log-in or a password change that checked the old hash wait and then fail, and a
   * second deletion find the first done (and answer as it did).
   */
  async deleteAccount(session: SessionPrincipal, input: DeleteAccountBody, address: string): Promise<void> {
    const user = await this.sessions.checkPassword(session, input.password, address, 'password');
    const afterCommit = await inTimedTransaction(this.db, CANCEL_LIMIT_MS, async (tx) => {
      const [row]: Array<{ password_hash: string; deleted: boolean }> = await tx.query(
        'SELECT password_hash, deleted_at IS NOT NULL AS deleted FROM users WHERE id = $1 FOR NO KEY UPDATE',
        [user.id],
      );
      if (row.deleted) return [];
      // Another change committed since the check: the password checked may be the old one.
      if (row.password_hash !== user.passwordHash) {
        throw ApiException.of(409, 'root', 'the password was changed meanwhile; enter the new one');
      }
      // Leases first, holding nothing else (the order of every lease writer; cancel-outstanding.ts).
      const done = [
        await this.checkouts.releaseAll(tx, user.id),
        await this.projects.archiveAll(tx, user.accountId),
        await this.apiKeys.revokeAll(tx, user.accountId),
        await this.sessions.endAll(tx, user.id),
      ];
      await tx.query(
        `UPDATE users SET email = 'deleted-' || id || '@deleted.invalid', name = '', password_hash = $2, deleted_at = now() WHERE id = $1`,
        [user.id, UNUSABLE_PASSWORD_HASH],
      );
      await tx.query(`UPDATE accounts SET name = '' WHERE id = $1`, [user.accountId]);
      return done;
    });
    // Only once committed: a cache load before that could keep a row the transaction was still changing.
    for (const forget of afterCommit) forget();
  }
}
