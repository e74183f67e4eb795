import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiException } from '../common/errors/api.exception';
import { ApiKeysService } from './api-keys.service';
import { RateLimitService } from './rate-limit.service';

/** Authenticates `/api/v1` calls by the `apikey` header and applies the rate limits per key and per account. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly keys: ApiKeysService,
    private readonly rateLimit: RateLimitService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const given = apiKeyHeader(request);
    if (!given) throw noApiKey(given);
    const principal = await this.keys.authenticate(given, request.ip);
    if (!principal) throw invalidApiKey(given);
    await this.rateLimit.consume(principal);
    request.apiKey = principal;
    return true;
  }
}

/** The `apikey` header as sent (the first, if sent twice). */
export function apiKeyHeader(request: FastifyRequest): string | undefined {
  const header = request.headers.apikey;
  return Array.isArray(header) ? header[0] : header;
}

/**
 * The 401 for a header that holds no key at all, absent or empty: no look-up can find one. Also answered
 * before the body is read (api-key-header-check.ts).
 */
export function noApiKey(given: string | undefined): ApiException {
  return given === undefined ? ApiException.of(401, 'apikey', 'Missing header apikey') : invalidApiKey(given);
}

function invalidApiKey(given: string): ApiException {
  return ApiException.of(401, 'root', `API key ${JSON.stringify(given.slice(0, 100))} is not valid: put a valid live or test key in the apikey header`);
}
