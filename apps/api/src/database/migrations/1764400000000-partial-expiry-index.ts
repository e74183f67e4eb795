import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * ix_checkouts_active_expiry serves one query, the expiry sweep (`state = 'active' AND expires_at <=
 * now()`, work/lease-expiry.ts), but held every checkout ever made: each lease that ended (submitted,
 * released, expired) put a second entry into it, since a row whose indexed `state` changes is written
 * anew in every index whose predicate it meets. Partial on `state = 'active'`, it holds only live
 * leases and the submit writes one index entry fewer (docs/performance.md, "Checkout and submit").
 */
export class PartialExpiryIndex1764400000000 implements MigrationInterface {
  name = 'PartialExpiryIndex1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ix_checkouts_active_expiry`);
    await q.query(`CREATE INDEX ix_checkouts_active_expiry ON checkouts (expires_at) WHERE state = 'active'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ix_checkouts_active_expiry`);
    await q.query(`CREATE INDEX ix_checkouts_active_expiry ON checkouts (state, expires_at)`);
  }
}
