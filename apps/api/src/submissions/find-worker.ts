import { LRUCache } from 'lru-cache';
import type { DataSource } from 'typeorm';
import { WORKER_PSEUDONYM } from '@crowdbox/contracts';
import { workerPseudonymSql } from './worker-pseudonym';

/**
 * Workers found by their pseudonym, by project and pseudonym: a pseudonym names one worker for good (it
 * is a hash of the two ids), so an entry is never stale, and the lookup reads every submitter of the
 * project (~40 ms for 48,000 submissions here), which a requester paging one worker's tasks would
 * otherwise pay on every page. Only workers found are kept: a name of nobody may name a worker who
 * submits later.
 */
const found = new LRUCache<string, string>({ max: 10_000 });

/**
 * The worker whose pseudonym in the project is `name`, among those who submitted there (the only workers
 * a requester can name), or undefined. The hash is taken once per distinct worker, in PostgreSQL, rather
 * than reading them all into the process; a malformed name never reaches the query.
 */
export async function findWorkerByPseudonym(db: DataSource, projectId: string, name: string): Promise<string | undefined> {
  if (!WORKER_PSEUDONYM.test(name)) return undefined;
  const key = `${projectId}:${name}`;
  const cached = found.get(key);
  if (cached) return cached;
  const rows: Array<{ worker_id: string }> = await db.query(
    `SELECT w.worker_id
       FROM (SELECT DISTINCT s.worker_id FROM submissions s JOIN tasks t ON t.id = s.task_id WHERE t.project_id = $1) w
      WHERE ${workerPseudonymSql('$1::uuid', 'w.worker_id')} = $2
      LIMIT 1`,
    [projectId, name],
  );
  if (rows[0]) found.set(key, rows[0].worker_id);
  return rows[0]?.worker_id;
}
