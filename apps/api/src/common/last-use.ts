import type { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';

/** A row's `last_used_at` is written at most this often per row and process. */
export const LAST_USED_EVERY_MS = 60_000;
/** Rows remembered as written; past it, those written longer ago than LAST_USED_EVERY_MS are forgotten. */
const MAX_REMEMBERED = 50_000;

/**
 * Records when an API key or a session was last used, for the console's lists, without a write per
 * request (docs/decisions.md, "`last_used_at` is written at most once a minute per key"): the UPDATE is
 * not awaited, runs at most once a LAST_USED_EVERY_MS per row in this process, and a failure is only
 * logged. What is remembered stays bounded however many sessions pass through a long-lived process.
 */
export class LastUseRecorder {
  private readonly written = new Map<string, number>();

  /** `table`: a table of ours with `id` and `last_used_at`. */
  constructor(
    private readonly db: DataSource,
    private readonly table: 'api_keys' | 'sessions',
    private readonly logger: Logger,
  ) {}

  record(id: string, now = Date.now()): void {
    if ((this.written.get(id) ?? -Infinity) > now - LAST_USED_EVERY_MS) return;
    if (this.written.size >= MAX_REMEMBERED) this.forgetBefore(now - LAST_USED_EVERY_MS);
    this.written.set(id, now);
    this.db
      .query(`UPDATE ${this.table} SET last_used_at = now() WHERE id = $1`, [id])
      .catch((error: Error) => this.logger.warn(`could not record the use of ${this.table} row ${id}: ${error.message}`));
  }

  private forgetBefore(moment: number): void {
    for (const [id, at] of this.written) if (at <= moment) this.written.delete(id);
    // Every row was used within the minute: forget the oldest half rather than grow (insertion order).
    if (this.written.size >= MAX_REMEMBERED) [...this.written.keys()].slice(0, MAX_REMEMBERED / 2).forEach((id) => this.written.delete(id));
  }
}
