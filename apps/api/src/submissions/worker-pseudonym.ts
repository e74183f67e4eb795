import { createHash } from 'node:crypto';

/** A stable per-project name for a worker: requesters can tell workers apart but never learn who they are. */
export function workerPseudonym(projectId: string, workerId: string): string {
  return `worker_${createHash('sha256').update(`${projectId}:${workerId}`).digest('hex').slice(0, 12)}`;
}

/**
 * `workerPseudonym` as a PostgreSQL expression over two uuid columns (uuid::text is the same lower-case,
 * hyphenated spelling the ids have in JavaScript): to find the worker a requester names without reading
 * every worker of the project into the process. `worker-blocks.e2e.spec.ts` names workers by the
 * pseudonyms the results show, so it fails when the two differ.
 */
export const workerPseudonymSql = (projectColumn: string, workerColumn: string): string =>
  `'worker_' || left(encode(sha256(convert_to(${projectColumn}::text || ':' || ${workerColumn}::text, 'UTF8')), 'hex'), 12)`;
