import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Two indexes of webhook_events served only pending events (the outbox relay's `state = 'pending' AND
 * next_attempt_at <= …`, the challenge's release of an address's waiting events) but held every event
 * ever written, and every delivery wrote a second entry into both, as the row's indexed `state` changed.
 * Partial on `state = 'pending'`, they hold only the events still to deliver: a delivery's update writes
 * two index entries instead of four, and the relay's index stays the size of the backlog, not of the
 * history. An endpoint's deletion (ON DELETE SET NULL) would now scan the events; nothing deletes an
 * endpoint but an account's deletion, which deletes its events too (docs/decisions.md, "Outbox indexes hold pending events only").
 */
export class PendingEventIndexes1764600000000 implements MigrationInterface {
  name = 'PendingEventIndexes1764600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ix_webhook_events_state_next`);
    await q.query(`DROP INDEX ix_webhook_events_endpoint_state`);
    await q.query(`CREATE INDEX ix_webhook_events_pending_next ON webhook_events (next_attempt_at) WHERE state = 'pending'`);
    await q.query(`CREATE INDEX ix_webhook_events_pending_endpoint ON webhook_events (endpoint_id) WHERE state = 'pending'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ix_webhook_events_pending_next`);
    await q.query(`DROP INDEX ix_webhook_events_pending_endpoint`);
    await q.query(`CREATE INDEX ix_webhook_events_state_next ON webhook_events (state, next_attempt_at)`);
    await q.query(`CREATE INDEX ix_webhook_events_endpoint_state ON webhook_events (endpoint_id, state)`);
  }
}
