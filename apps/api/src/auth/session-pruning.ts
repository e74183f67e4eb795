import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { deleteInBatches, Housekeeping } from '../common/housekeeping';

/**
 * Deletes expired sessions, hourly. Every log-in adds a row and nothing else removed one, so the table
 * grew for as long as the service ran; an expired session is refused anyway (SessionsService), so
 * deleting it changes nothing anyone can see. Oldest first on ix_sessions_expires_at (migration
 * 1765500000000), 1,000 a statement. Runs in roles jobs and all; safe with several such processes.
 */
@Injectable()
export class SessionPruning extends Housekeeping {
  private readonly logger = new Logger(SessionPruning.name);

  constructor(@InjectDataSource() private readonly db: DataSource) {
    super();
  }

  /** One pass: how many expired sessions it deleted. */
  protected pass(): Promise<number> {
    return deleteInBatches(
      this.db,
      this.logger,
      'expired sessions',
      `DELETE FROM sessions WHERE id IN (SELECT id FROM sessions WHERE expires_at < now() ORDER BY expires_at LIMIT $1)`,
      [],
      () => this.stopping(),
    );
  }
}
