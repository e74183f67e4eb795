import './work.css';
import type { WorkSubmissionResponse } from '@crowdbox/contracts';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { errorItems } from '../api/client';
import { workApi } from '../api/work.api';
import { DateTime } from '../console/components/date-time';
import { ErrorList } from '../shell/error-list';
import { formatCents } from '../shell/format';
import { Loading } from '../shell/loading';
import { taskStateText } from './task-state-text';
import { useAsync } from './use-async';

/** The older pages loaded below the first, with the cursor of the next one (null: there is none). */
interface Older {
  items: WorkSubmissionResponse[];
  next: string | null;
}

/**
 * /work/history: every task the worker submitted, newest first, with what it paid (docs/decisions.md,
 * "Worker history"), so they can check their pay submission by submission. "Load older" appends the next
 * page below, keeping the rows already read in place.
 */
export function WorkHistoryPage() {
  const { state, reload } = useAsync((signal) => workApi.submissions(null, signal));
  const [older, setOlder] = useState<Older | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [olderError, setOlderError] = useState<unknown>(null);
  // Said once older rows arrive (the button keeps the focus), or that there are no more.
  const [said, setSaid] = useState('');
  const endRef = useRef<HTMLParagraphElement>(null);
  const movedToEnd = useRef(false);

  // A new first page (Try again) starts the list over.
  useEffect(() => {
    setOlder(null);
    setOlderError(null);
    setSaid('');
  }, [state]);

  const first = state.status === 'ok' ? state.data : null;
  const items = first ? [...first.data, ...(older?.items ?? [])] : [];
  const next = older ? older.next : (first?.next_cursor ?? null);

  // When the last page arrives the button goes; the focus goes to the line that says so, not to the page top.
  useEffect(() => {
    if (movedToEnd.current && next === null) {
      movedToEnd.current = false;
      endRef.current?.focus();
    }
  }, [next]);

  const loadOlder = async () => {
    if (!next || loadingOlder) return;
    setLoadingOlder(true);
    setOlderError(null);
    try {
      const page = await workApi.submissions(next);
      setOlder((o) => ({ items: [...(o?.items ?? []), ...page.data], next: page.next_cursor }));
      movedToEnd.current = page.next_cursor === null;
      setSaid(`${page.data.length} older ${page.data.length === 1 ? 'submission' : 'submissions'} loaded${page.next_cursor ? '' : '; that is all of them'}.`);
    } catch (error) {
      setOlderError(error);
    } finally {
      setLoadingOlder(false);
    }
  };

  const header = (
    <div className="page-header">
      <div>
        <h1>History</h1>
        <p className="muted">Every task you submitted, newest first, with the reward it earned you.</p>
      </div>
      <Link className="button" to="/work">
        Back to work
      </Link>
    </div>
  );

  if (state.status === 'loading') return <Loading label="Loading your history" />;
  if (state.status === 'error') {
    return (
      <div className="page">
        {header}
        <ErrorList errors={errorItems(state.error)} title="Could not load your history" />
        <button className="button" type="button" onClick={reload}>
          Try again
        </button>
      </div>
    );
  }

  return (
    <div className="page work-history">
      {header}
      <div className="visually-hidden" role="status" data-testid="history-announcer">
        {said}
      </div>
      {items.length === 0 ? (
        <div className="card empty-state" data-testid="history-empty">
          <p>You have not submitted any tasks yet. Each task you submit is listed here with its reward.</p>
          <Link className="button primary" to="/work">
            Find work
          </Link>
        </div>
      ) : (
        <>
          <div className="table-scroll card flush">
            <table className="table" data-testid="history-table">
              <caption className="visually-hidden">Your submissions, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Submitted</th>
                  <th scope="col">Project</th>
                  <th scope="col" className="num">
                    Boxes
                  </th>
                  <th scope="col" className="num">
                    Reward
                  </th>
                  <th scope="col">Task</th>
                </tr>
              </thead>
              <tbody>
                {items.map((s) => (
                  <tr key={s.submission_id} data-testid="history-row" data-submission-id={s.submission_id}>
                    <td>
                      <DateTime iso={s.submitted_at} />
                    </td>
                    <td data-testid="history-project">{s.project.display_name}</td>
                    <td className="num" data-testid="history-boxes">
                      {s.box_count}
                    </td>
                    <td className="num" data-testid="history-reward">
                      {formatCents(s.reward)}
                    </td>
                    <td>{taskStateText(s)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {olderError !== null && <ErrorList errors={errorItems(olderError)} title="Could not load older submissions" />}
          {next ? (
            <button
              className="button history-more"
              type="button"
              onClick={() => void loadOlder()}
              aria-disabled={loadingOlder}
              data-testid="history-older"
            >
              {loadingOlder ? 'Loading…' : olderError !== null ? 'Try again: load older' : 'Load older'}
            </button>
          ) : (
            <p className="muted history-end" ref={endRef} tabIndex={-1} data-testid="history-end">
              That is all your submissions.
            </p>
          )}
        </>
      )}
    </div>
  );
}
