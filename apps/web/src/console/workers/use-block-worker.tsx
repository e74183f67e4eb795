import { useState } from 'react';
import { Link } from 'react-router';
import { ErrorList } from '../../shell/error-list';
import { ConfirmDialog } from '../components/confirm-dialog';
import { consoleApi, type BlockWorkerResult } from '../lib/console-api';
import { plural } from '../lib/format';
import { useConfirmedRequest } from '../lib/use-confirmed-request';

/** What the server did, in words: "worker_… is blocked. 1 task they held was taken back." */
export function blockWorkerResultText(result: BlockWorkerResult): string {
  const n = result.ended_checkouts;
  const taken = `${plural(n, 'task')} they held ${n === 1 ? 'was' : 'were'} taken back.`;
  // Blocking again also ends a lease that a checkout racing the first block took (docs/decisions.md).
  if (!result.created) return n === 0 ? `${result.worker} was already blocked.` : `${result.worker} was already blocked. ${taken}`;
  return `${result.worker} is blocked. ${n === 0 ? 'They held none of your tasks.' : taken}`;
}

/**
 * The one way a console page blocks a worker of a project (docs/console.md, "Blocking a worker"): `ask`
 * opens a confirmation that says what a block does and does not do; once confirmed, `view` shows what the
 * server did (or why not) and `blocked` holds the worker, so the page can drop their button for the rest
 * of the visit. The page places `view` (the result, the errors and the dialog) where its buttons are.
 * `onDone` follows an answer, or no answer (the block may have been made): the page reads its data again.
 */
export function useBlockWorker(projectUuid: string, onDone: () => void) {
  const [chosen, setChosen] = useState('');
  const [blocked, setBlocked] = useState<string[]>([]);
  const { open, setOpen, busy, result, setResult, errors, setErrors, unsure, resultRef, confirm } = useConfirmedRequest(async () => {
    const answer = await consoleApi.blockWorker(projectUuid, chosen);
    setBlocked((names) => [...names, chosen]);
    return answer;
  }, onDone);

  const ask = (worker: string) => {
    setChosen(worker);
    setErrors([]);
    setResult(null);
    setOpen(true);
  };

  const view = (
    <>
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
    </>
  );

  return { ask, blocked, view };
}

/** The button that opens the block confirmation for one worker: the same words on every page. */
export function BlockWorkerButton({ worker, onClick }: { worker: string; onClick: () => void }) {
  return (
    <button type="button" className="button danger small" aria-label={`Block ${worker}…`} onClick={onClick}>
      Block worker…
    </button>
  );
}
