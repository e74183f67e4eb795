/**
 * A FROM item that makes its own statement's commit asynchronous: `synchronous_commit` off for this
 * transaction only (a statement outside a transaction block is its own transaction, and PostgreSQL
 * reads the setting when it commits), so the statement answers without waiting for its WAL to reach
 * the disk. The session's setting is untouched. On the VMs this runs on, that wait is an fdatasync of
 * a virtual disk: turning it off for every commit (a probe, never a setting) made a webhook task ~15 %
 * cheaper in CPU (docs/decisions.md, "Commits that need not wait for the disk").
 *
 * Only for writes that a database crash may lose without harm, because the system repairs their loss
 * by itself: a cache that readers fill again (the stored consensus), an attempt record whose loss
 * leaves its event pending, so the relay delivers it once more (at-least-once). Never for a lease, a
 * submission or an outbox event: those are promises made to a worker or a receiver. Visibility is
 * unchanged (other sessions see the write once it commits); only durability lags, by at most three
 * `wal_writer_delay` (600 ms by default), or until any later synchronous commit flushes past it.
 */
export const ASYNC_COMMIT = `(SELECT set_config('synchronous_commit', 'off', true)) AS async_commit`;
