import { useState } from 'react';
import { Link } from 'react-router';
import { ErrorList } from '../../shell/error-list';
import { ConfirmDialog } from '../components/confirm-dialog';
import { consoleApi, type BlockWorkerResult } from '../lib/console-api';
import { plural } from '../lib/format';
import { useConfirmedRequest } from '../lib/use-confirmed-request';

interface Props {
  projectUuid: string;
  /** The pseudonyms of the workers whose boxes the page shows (`submissions[].worker`). */
  workers: string[];
  /** Those of them the account had blocked when the task was read (`blocked_workers`). */
  blockedAlready: string[];
  /** Called after the server answered: a block may have taken this very task back from a worker. */
  onDone: () => void;
}

/** What the server did, in words: "worker_… is blocked. 1 task they held was taken back." */
export function blockWorkerResultText(result: BlockWorkerResult): string {
  const n = result.ended_checkouts;
  const taken = `${plural(n, 'task')} they held ${n === 1 ? 'was' : 'were'} taken back.`;
  // Blocking again also ends a lease that a checkout racing the first block took (docs/decisions.md).
  if (!result.created) return n === 0 ? `${result.worker} was already blocked.` : `${result.worker} was already blocked. ${taken}`;
  return `${result.worker} is blocked. ${n === 0 ? 'They held none of your tasks.' : taken}`;
}

/**
 * The task page's "Block a worker" (docs/console.md, "Blocking a worker"): one button per worker whose
 * boxes are shown, a confirmation that says what a block does and does not do, then what the server did.
 * A worker blocked already, when the task was read or on this visit, has no button but says so.
 */
export function BlockWorker({ projectUuid, workers, blockedAlready, onDone }: Props) {
  const [chosen, setChosen] = useState('');
  const [blocked, setBlocked] = useState<string[]>([]);
  const { open, setOpen, busy, result, setResult, errors, setErrors, unsure, resultRef, confirm } = useConfirmedRequest(async () => {
    const answer = await consoleApi.blockWorker(projectUuid, chosen);
    setBlocked((names) => [...names, chosen]);
    return answer;
  }, onDone);

  if (workers.length === 0) return null;
  return (
    <section className="card cbc-task__block" aria-labelledby="block-worker-title" data-testid="block-worker">
      <h2 id="block-worker-title">Block a worker</h2>
      <p className="muted">A worker whose boxes are careless can be kept from all your tasks.</p>
      <ul className="cbc-worker-list">
        {[...new Set(workers)].map((worker) => (
          <li key={worker}>
            <span className="cbc-mono">{worker}</span>
            {blocked.includes(worker) || blockedAlready.includes(worker) ? (
              <span className="muted">blocked</span>
            ) : (
              <button
                type="button"
                className="button danger small"
                aria-label={`Block ${worker}…`}
                onClick={() => {
                  setChosen(worker);
                  setErrors([]);
                  setResult(null);
                  setOpen(true);
                }}
              >
                Block worker…
              </button>
            )}
          </li>
        ))}
      </ul>
      {result && (
        <p className="alert success" role="status" tabIndex={-1} ref={resultRef} data-testid="block-worker-result">
          {blockWorkerResultText(result)} <Link to="/console/workers">Blocked workers</Link>
        </p>
      )}
      <ErrorList errors={errors} title={unsure ? `No answer from the server: ${chosen} may have been blocked. Check the Blocked workers page.` : `${chosen} was not blocked.`} />
      {unsure && (
        <p>
          <Link to="/console/workers">Blocked workers</Link>
        </p>
      )}
      <ConfirmDialog open={open} danger busy={busy} title={`Block ${chosen}?`} confirmLabel="Block worker" cancelLabel="Don’t block" onConfirm={confirm} onClose={() => setOpen(false)}>
        <ul data-testid="block-worker-summary">
          <li>They get no more tasks from any of your projects.</li>
          <li>Tasks they hold now are taken back, unsubmitted, for other workers to do.</li>
          <li>Their submissions so far stay in your results and in the consensus.</li>
          <li>You can unblock them on the Blocked workers page.</li>
        </ul>
      </ConfirmDialog>
    </section>
  );
}
