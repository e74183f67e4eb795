import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The workers an account blocked (docs/decisions.md, "Blocking a worker"). A new, empty table: no lock
 * on any table in use but the short ones its foreign keys take.
 */
export class WorkerBlocks1767000000000 implements MigrationInterface {
  name = 'WorkerBlocks1767000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE worker_blocks (
        id uuid NOT NULL,
        account_id uuid NOT NULL,
        worker_id uuid NOT NULL,
        project_id uuid NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_worker_blocks PRIMARY KEY (id),
        CONSTRAINT uq_worker_blocks_account_worker UNIQUE (account_id, worker_id),
        CONSTRAINT fk_worker_blocks_account FOREIGN KEY (account_id) REFERENCES accounts(id) ON DELETE CASCADE,
        CONSTRAINT fk_worker_blocks_worker FOREIGN KEY (worker_id) REFERENCES users(id) ON DELETE CASCADE,
        CONSTRAINT fk_worker_blocks_project FOREIGN KEY (project_id) REFERENCES projects(id) ON DELETE CASCADE
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE worker_blocks`);
  }
}
