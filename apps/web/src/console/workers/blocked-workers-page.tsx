import type { ErrorItem } from '@crowdbox/contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { ApiError, errorItems, mayHaveArrived } from '../../api/client';
import { ErrorList } from '../../shell/error-list';
import { DateTime } from '../components/date-time';
import { LoadView } from '../components/load-view';
import { consoleApi, type BlockedWorkerResponse } from '../lib/console-api';
import { useFocusStatus } from '../lib/use-focus-status';
import { useLoad } from '../lib/use-load';

/** /console/workers: the workers the account blocked, newest first, each with an Unblock. */
export function BlockedWorkersPage() {
  const blocks = useLoad((signal) => consoleApi.blockedWorkers(signal), []);
  const [busy, setBusy] = useState<string | null>(null);
  const [errors, setErrors] = useState<ErrorItem[]>([]);
  // What the errors are about: not unblocked, or, without an answer, perhaps unblocked.
  const [errorTitle, setErrorTitle] = useState('');
  const [unblocked, setUnblocked] = useState('');
  // Blocks removed on this visit leave the table at once, not when the list read again arrives.
  const [removed, setRemoved] = useState<string[]>([]);
  // The Unblock button pressed is gone with its row: the sentence that says what happened takes the focus.
  const unblockedRef = useFocusStatus(unblocked);

  // No confirmation: an unblock takes nothing from anyone, and a worker is blocked again from a task's page.
  const unblock = async (block: BlockedWorkerResponse) => {
    if (busy) return;
    setBusy(block.id);
    setErrors([]);
    setUnblocked('');
    try {
      const answer = await consoleApi.unblockWorker(block.id);
      setRemoved((ids) => [...ids, block.id]);
      setUnblocked(`${answer.worker} is unblocked: they can take your tasks again.`);
      blocks.reload();
    } catch (error) {
      setErrors(errorItems(error));
      setErrorTitle(
        mayHaveArrived(error) ? `No answer from the server: ${block.worker} may have been unblocked. The list is read again.` : `${block.worker} was not unblocked.`,
      );
      // A 404 is a block removed meanwhile (another tab, another person of the account): the list shows that.
      if (mayHaveArrived(error) || (error instanceof ApiError && error.status === 404)) blocks.reload();
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="page">
      <div className="page-header">
        <div>
          <h1>Blocked workers</h1>
          <p className="muted cbc-lede">
            A blocked worker gets no more tasks from any of your projects. Their submissions stay in your results.
          </p>
        </div>
      </div>
      <ErrorList errors={errors} title={errorTitle} />
      {unblocked && (
        <p className="alert info" role="status" tabIndex={-1} ref={unblockedRef} data-testid="worker-unblocked">
          {unblocked}
        </p>
      )}

      <LoadView state={blocks.state} label="Loading blocked workers" onRetry={blocks.reload}>
        {(all) => {
          const list = all.filter((block) => !removed.includes(block.id));
          return list.length === 0 ? (
            <div className="card cbc-empty" data-testid="blocked-workers-empty">
              <p>
                No worker is blocked. To block one, open a task of a project and press &ldquo;Block worker…&rdquo; beside the worker whose boxes you saw, or
                find the workers who agree least with the others on a project&rsquo;s Workers tab.
              </p>
              <p>
                <Link to="/console">Your projects</Link>
              </p>
            </div>
          ) : (
            <div className="table-scroll card cbc-table-card">
              <table className="table" data-testid="blocked-workers-table">
                <caption className="visually-hidden">Blocked workers</caption>
                <thead>
                  <tr>
                    <th scope="col">Worker</th>
                    <th scope="col">Blocked through</th>
                    <th scope="col">Blocked</th>
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((block) => (
                    <tr key={block.id} data-testid="blocked-worker-row">
                      <td>
                        <span className="cbc-mono">{block.worker}</span>
                      </td>
                      <td className="cbc-break">
                        <Link to={`/console/projects/${block.project.uuid}`}>{block.project.display_name}</Link>
                      </td>
                      <td>
                        <DateTime iso={block.blocked_at} />
                      </td>
                      <td>
                        {/* aria-disabled, not disabled, while busy: a disabled button loses the focus to the page's body. */}
                        <button
                          type="button"
                          className="button small"
                          aria-disabled={busy !== null || undefined}
                          onClick={() => unblock(block)}
                          aria-label={`Unblock ${block.worker}`}
                        >
                          {busy === block.id ? 'Unblocking…' : 'Unblock'}
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          );
        }}
      </LoadView>
    </div>
  );
}
