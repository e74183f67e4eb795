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
    const header = request.headers.apikey;
    const given = Array.isArray(header) ? header[0] : header;
    if (given === undefined) throw ApiException.of(401, 'apikey', 'Missing header apikey');
    const principal = given ? await this.keys.authenticate(given, request.ip) : null;
    if (!principal) {
      throw ApiException.of(
        401,
        'root',
        `API key ${JSON.stringify(given.slice(0, 100))} is not valid: put a valid live or test key in the apikey header`,
      );
    }
    await this.rateLimit.consume(principal);
    request.apiKey = principal;
    return true;
  }
}
