import { timingSafeEqual } from 'node:crypto';
import { ApiException } from '../common/errors/api.exception';
import { sha256Hex } from '../common/crypto.util';

/**
 * Who may read /metrics, on the HTTP port and on a jobs process's JOBS_HTTP_PORT alike: nobody (404)
 * unless METRICS_TOKEN is set, and then only `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise).
 * The figures say how busy the service is and are nobody else's business. Throws the refusal.
 */
export function assertMetricsAccess(token: string | undefined, authorization: string | undefined): void {
  if (!token) throw ApiException.notFound('metrics are off: set METRICS_TOKEN to serve them');
  if (!sameSecret(authorization ?? '', `Bearer ${token}`)) {
    throw ApiException.of(401, 'authorization', 'send Authorization: Bearer <METRICS_TOKEN>', { 'www-authenticate': 'Bearer' });
  }
}

/** Compares digests, so neither the length nor the first difference shows in the time taken. */
function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(Buffer.from(sha256Hex(given), 'hex'), Buffer.from(sha256Hex(expected), 'hex'));
}
