import { createHash } from 'node:crypto';

/** A stable per-project name for a worker: requesters can tell workers apart but never learn who they are. */
export function workerPseudonym(projectId: string, workerId: string): string {
  return `worker_${createHash('sha256').update(`${projectId}:${workerId}`).digest('hex').slice(0, 12)}`;
}
