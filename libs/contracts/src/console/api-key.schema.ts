import { z } from 'zod';
import { objectBody } from '../schema-helpers';

export const createApiKeyBodySchema = objectBody(
  z.object({ mode: z.enum(['live', 'test'], { error: 'must be "live" or "test"' }) }),
);
export type CreateApiKeyBody = z.output<typeof createApiKeyBodySchema>;

export interface ApiKeyResponse {
  id: string;
  mode: 'live' | 'test';
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** Only the creation reply carries the secret; it is never shown again. */
export interface CreatedApiKeyResponse {
  id: string;
  mode: 'live' | 'test';
  prefix: string;
  secret: string;
  created_at: string;
}
