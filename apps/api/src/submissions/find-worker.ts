import type { DataSource } from 'typeorm';
import { WORKER_PSEUDONYM, workerPseudonymSql } from './worker-pseudonym';

/**
 * The worker whose pseudonym in the project is `name`, among those who submitted there (the only workers
 * a requester can name), or undefined. The hash is taken once per distinct worker, in PostgreSQL, rather
 * than reading them all into the process; a malformed name never reaches the query.
 */
export async function findWorkerByPseudonym(db: DataSource, projectId: string, name: string): Promise<string | undefined> {
  if (!WORKER_PSEUDONYM.test(name)) return undefined;
  const rows: Array<{ worker_id: string }> = await db.query(
    `SELECT w.worker_id
       FROM (SELECT DISTINCT s.worker_id FROM submissions s JOIN tasks t ON t.id = s.task_id WHERE t.project_id = $1) w
      WHERE ${workerPseudonymSql('$1::uuid', 'w.worker_id')} = $2
      LIMIT 1`,
    [projectId, name],
  );
  return rows[0]?.worker_id;
}
