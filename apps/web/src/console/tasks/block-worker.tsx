import { BlockWorkerButton, useBlockWorker } from '../workers/use-block-worker';

interface Props {
  projectUuid: string;
  /** The pseudonyms of the workers whose boxes the page shows (`submissions[].worker`). */
  workers: string[];
  /** Those of them the account had blocked when the task was read (`blocked_workers`). */
  blockedAlready: string[];
  /** Called after the server answered: a block may have taken this very task back from a worker. */
  onDone: () => void;
}

/**
 * The task page's "Block a worker" (docs/console.md, "Blocking a worker"): one button per worker whose
 * boxes are shown, the confirmation and result of useBlockWorker. A worker blocked already, when the
 * task was read or on this visit, has no button but says so.
 */
export function BlockWorker({ projectUuid, workers, blockedAlready, onDone }: Props) {
  const { ask, blocked, view } = useBlockWorker(projectUuid, onDone);

  if (workers.length === 0) return null;
  return (
    <section className="card cbc-task__block" aria-labelledby="block-worker-title" data-testid="block-worker">
      <h2 id="block-worker-title">Block a worker</h2>
      <p className="muted">A worker whose boxes are careless can be kept from all your tasks.</p>
      <ul className="cbc-worker-list">
        {[...new Set(workers)].map((worker) => (
          <li key={worker}>
            <span className="cbc-mono">{worker}</span>
            {blocked.includes(worker) || blockedAlready.includes(worker) ? <span className="muted">blocked</span> : <BlockWorkerButton worker={worker} onClick={() => ask(worker)} />}
          </li>
        ))}
      </ul>
      {view}
    </section>
  );
}
