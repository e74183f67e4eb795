import type { ApiKeyResponse, CreatedApiKeyResponse } from '@crowdbox/contracts';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, IsNull, type EntityManager } from 'typeorm';
import { ApiException } from '../common/errors/api.exception';
import { randomSecret, sha256Hex } from '../common/crypto.util';
import { TtlCache } from '../common/ttl-cache';
import type { ApiKeyPrincipal } from '../common/http/principal';
import { APP_CONFIG } from '../config/config.module';
import { CacheInvalidation } from '../redis/cache-invalidation';
import { LastUseRecorder } from '../common/last-use';
import type { AppConfig } from '../config/config.schema';
import { ApiKey, type ApiKeyMode } from './api-key.entity';
import { SecretLookupThrottle } from './secret-lookup-throttle';
import { holdUndeletedAccount } from './sessions.service';

const PREFIX_LENGTH = 12; // `cb_live_` + 4 characters of the secret
/** Keys that exist, cached; at most MAX_UNREVOKED_KEYS per account can be among them. */
const MAX_CACHED_KEYS = 20_000;
/** Secrets that do not exist (or were revoked), cached apart so they can never push a real key out. */
const MAX_CACHED_UNKNOWN = 10_000;
const UNKNOWN = Object.freeze({});
/**
 * Keys, live and test together, an account may hold unrevoked: more than rotation and one key per program
 * need, and a bound on what one account can put in every process's key cache (docs/decisions.md, "Rate limit").
 */
export const MAX_UNREVOKED_KEYS = 20;

/**
 * API keys: creation (the secret is returned once), listing, revocation and authentication.
 * Authentication hits an in-process cache for CACHE_TTL_MS; a revocation makes every process forget the
 * key at once (CacheInvalidation), with CACHE_TTL_MS as the bound while Redis cannot tell them. A secret
 * neither cache knows is looked up only while its client address has look-ups of unknown secrets left
 * (SecretLookupThrottle).
 */
@Injectable()
export class ApiKeysService {
  private readonly logger = new Logger(ApiKeysService.name);
  /** Keys that exist, by secret hash. */
  private readonly known: TtlCache<string, ApiKeyPrincipal>;
  /** Unknown and revoked secrets, by hash: a bound of their own, so a flood of them evicts only its kind. */
  private readonly unknown: TtlCache<string, object>;
  private readonly lastUse: LastUseRecorder;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly lookups: SecretLookupThrottle,
    private readonly invalidation: CacheInvalidation,
  ) {
    this.known = new TtlCache(config.CACHE_TTL_MS, MAX_CACHED_KEYS);
    this.unknown = new TtlCache(config.CACHE_TTL_MS, MAX_CACHED_UNKNOWN);
    this.lastUse = new LastUseRecorder(db, 'api_keys', this.logger);
    // Only `known` can hold a revoked key; a secret in `unknown` cannot become a key.
    invalidation.register('api-keys', { forget: (hashes) => hashes.forEach((hash) => this.known.delete(hash)), clear: () => this.known.clear() });
  }

  /** A new key, unless the account already holds MAX_UNREVOKED_KEYS that are not revoked (422). */
  async create(accountId: string, mode: ApiKeyMode): Promise<CreatedApiKeyResponse> {
    const secret = `cb_${mode}_${randomSecret(32)}`;
    const key = await this.db.transaction(async (manager) => {
      // Not for an account being deleted (holdUndeletedAccount): its deletion would not see this key.
      await holdUndeletedAccount(manager, accountId);
      // Creations for one account take turns on its row, so each counts the keys the one before made
      // (NO KEY UPDATE: inserts elsewhere that only reference the account are not held up).
      await manager.query('SELECT 1 FROM accounts WHERE id = $1 FOR NO KEY UPDATE', [accountId]);
      const [{ n }]: Array<{ n: number }> = await manager.query(
        'SELECT count(*)::int AS n FROM api_keys WHERE account_id = $1 AND revoked_at IS NULL',
        [accountId],
      );
      if (n >= MAX_UNREVOKED_KEYS) {
        throw ApiException.unprocessable(
          'root',
          `an account may hold at most ${MAX_UNREVOKED_KEYS} API keys that are not revoked; revoke one it no longer uses first`,
        );
      }
      return manager.getRepository(ApiKey).save({
        id: randomUUID(),
        accountId,
        mode,
        prefix: secret.slice(0, PREFIX_LENGTH),
        secretHash: sha256Hex(secret),
        revokedAt: null,
        lastUsedAt: null,
      });
    });
    return { id: key.id, mode: key.mode, prefix: key.prefix, secret, created_at: key.createdAt.toISOString() };
  }

  async list(accountId: string): Promise<ApiKeyResponse[]> {
    const keys = await this.db.getRepository(ApiKey).find({ where: { accountId }, order: { createdAt: 'DESC' } });
    return keys.map(toApiKeyResponse);
  }

  async revoke(accountId: string, id: string): Promise<ApiKeyResponse> {
    const repo = this.db.getRepository(ApiKey);
    const key = await repo.findOne({ where: { id, accountId } });
    if (!key) throw ApiException.notFound('api key not found');
    if (!key.revokedAt) {
      await repo.update({ id, revokedAt: IsNull() }, { revokedAt: new Date() });
      key.revokedAt = new Date();
    }
    this.invalidation.forget('api-keys', [key.secretHash]);
    return toApiKeyResponse(key);
  }

  /**
   * Revokes every key of the account in `tx` (the account's deletion); answers what to run once `tx` has
   * committed: every process forgets them, as for a revocation.
   */
  async revokeAll(tx: EntityManager, accountId: string): Promise<() => void> {
    const [rows]: [Array<{ secret_hash: string }>, number] = await tx.query(
      'UPDATE api_keys SET revoked_at = now() WHERE account_id = $1 AND revoked_at IS NULL RETURNING secret_hash',
      [accountId],
    );
    return () => this.invalidation.forget('api-keys', rows.map((row) => row.secret_hash));
  }

  /**
   * The principal for a presented secret, or null when it is unknown or revoked; 429 when neither cache
   * knows the secret and `clientAddress` has sent too many unknown ones (the database is not asked).
   */
  async authenticate(secret: string, clientAddress: string): Promise<ApiKeyPrincipal | null> {
    const hash = sha256Hex(secret);
    let principal = this.known.peek(hash) ?? null;
    if (!principal) {
      if (this.unknown.peek(hash)) return null;
      principal = await this.lookUp(hash, clientAddress);
    }
    if (principal) this.lastUse.record(principal.keyId);
    return principal;
  }

  /**
   * Asks the database, at the price of one of the address's look-ups, which a key that exists gives back.
   * Inside `known`'s load, so requests with the same key at once (a client's parallel calls after a deploy
   * emptied the cache) share one look-up and one point: each took its own point, and past the limit in
   * flight at once a live key was refused.
   */
  private async lookUp(hash: string, clientAddress: string): Promise<ApiKeyPrincipal | null> {
    // Only a key that exists goes into `known` (undefined is answered, not kept).
    const principal = await this.known.get(hash, () =>
      this.lookups.counted('apiKey', clientAddress, async () => {
        const rows: Array<{ id: string; account_id: string; mode: ApiKeyMode }> = await this.db.query(
          'SELECT id, account_id, mode FROM api_keys WHERE secret_hash = $1 AND revoked_at IS NULL',
          [hash],
        );
        return rows[0] ? { keyId: rows[0].id, accountId: rows[0].account_id, mode: rows[0].mode } : undefined;
      }),
    );
    if (!principal) this.unknown.set(hash, UNKNOWN);
    return principal ?? null;
  }
}

export function toApiKeyResponse(key: ApiKey): ApiKeyResponse {
  return {
    id: key.id,
    mode: key.mode,
    prefix: key.prefix,
    created_at: key.createdAt.toISOString(),
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    revoked_at: key.revokedAt?.toISOString() ?? null,
  };
}
