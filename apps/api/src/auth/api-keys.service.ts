import type { ApiKeyResponse, CreatedApiKeyResponse } from '@crowdbox/contracts';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, IsNull } from 'typeorm';
import { ApiException } from '../common/errors/api.exception';
import { randomSecret, sha256Hex } from '../common/crypto.util';
import type { ApiKeyPrincipal } from '../common/http/principal';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { ApiKey, type ApiKeyMode } from './api-key.entity';

const PREFIX_LENGTH = 12; // `cb_live_` + 4 characters of the secret
const LAST_USED_EVERY_MS = 60_000;

/**
 * API keys: creation (the secret is returned once), listing, revocation and authentication.
 * Authentication hits an in-process cache for CACHE_TTL_MS, so a revoked key stops working on every
 * node within that time (at once on the node that revoked it).
 */
@Injectable()
export class ApiKeysService {
  private readonly logger = new Logger(ApiKeysService.name);
  private readonly cache = new Map<string, { principal: ApiKeyPrincipal | null; until: number }>();
  private readonly lastUsedWritten = new Map<string, number>();

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async create(accountId: string, mode: ApiKeyMode): Promise<CreatedApiKeyResponse> {
    const secret = `cb_${mode}_${randomSecret(32)}`;
    const key = await this.db.getRepository(ApiKey).save({
      id: randomUUID(),
      accountId,
      mode,
      prefix: secret.slice(0, PREFIX_LENGTH),
      secretHash: sha256Hex(secret),
      revokedAt: null,
      lastUsedAt: null,
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
    this.cache.delete(key.secretHash);
    return toApiKeyResponse(key);
  }

  /** The principal for a presented secret, or null when it is unknown or revoked. */
  async authenticate(secret: string): Promise<ApiKeyPrincipal | null> {
    const hash = sha256Hex(secret);
    const now = Date.now();
    const cached = this.cache.get(hash);
    let principal: ApiKeyPrincipal | null;
    if (cached && cached.until > now) {
      principal = cached.principal;
    } else {
      const rows: Array<{ id: string; account_id: string; mode: ApiKeyMode }> = await this.db.query(
        'SELECT id, account_id, mode FROM api_keys WHERE secret_hash = $1 AND revoked_at IS NULL',
        [hash],
      );
      principal = rows[0] ? { keyId: rows[0].id, accountId: rows[0].account_id, mode: rows[0].mode } : null;
      if (this.config.CACHE_TTL_MS > 0) this.cache.set(hash, { principal, until: now + this.config.CACHE_TTL_MS });
    }
    if (principal) this.touch(principal.keyId, now);
    return principal;
  }

  /** Records last use at most once a minute per key, off the request's path. */
  private touch(keyId: string, now: number): void {
    if ((this.lastUsedWritten.get(keyId) ?? 0) > now - LAST_USED_EVERY_MS) return;
    this.lastUsedWritten.set(keyId, now);
    this.db
      .query('UPDATE api_keys SET last_used_at = now() WHERE id = $1', [keyId])
      .catch((error: Error) => this.logger.warn(`could not record key use: ${error.message}`));
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
