import { useEffect, useId, useRef } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { DateTime } from '../components/date-time';
import { LoadView } from '../components/load-view';
import { consoleApi, type TaskState } from '../lib/console-api';
import { formatCents, shortId } from '../lib/format';
import { useLoad } from '../lib/use-load';
import { ProjectHeader } from '../projects/project-header';
import { TaskStateBadge } from './task-state-badge';

const PAGE_SIZE = 25;
const FILTERS: Array<{ value: TaskState | ''; label: string }> = [
  { value: '', label: 'All tasks' },
  { value: 'incomplete', label: 'Outstanding' },
  { value: 'complete', label: 'Complete' },
  { value: 'cancelled', label: 'Cancelled' },
];

function parseState(value: string | null): TaskState | undefined {
  return value === 'incomplete' || value === 'complete' || value === 'cancelled' ? value : undefined;
}

/** The filter's name as its menu shows it: "All tasks", "Outstanding", … */
function filterLabel(state: TaskState | undefined): string {
  return FILTERS.find((f) => f.value === (state ?? ''))?.label ?? '';
}

/** Names the list the table shows (for screen readers): which tasks, in what order, which page. */
function caption(state: TaskState | undefined, page: number): string {
  const which = state ? `${filterLabel(state)} tasks` : filterLabel(undefined);
  return `${which}, newest first, page ${page}`;
}

/** /console/projects/:uuid/tasks: newest first, filtered by state (kept in the address), 25 a page. */
export function TaskListPage() {
  const { projectUuid = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const state = parseState(params.get('state'));
  // The cursors of the pages stepped through to this one (`before`, repeated), the last being this page's.
  // They live in the address, so Back from a task, a reload or a copied link shows the same page; the
  // filter menu and the project's Tasks tab leave them out, so another filter starts on its page 1.
  const cursors = params.getAll('before');
  const before = cursors[cursors.length - 1];
  const setCursors = (next: string[]) => {
    const search = new URLSearchParams(state ? { state } : {});
    for (const cursor of next) search.append('before', cursor);
    setParams(search);
  };
  const filterId = useId();
  // The pager is gone while the next page loads, taking the focus with it: the button pressed gets it
  // back, or the other one when the pressed one is disabled now (at the first or the last page).
  const pressed = useRef<'older' | 'newer' | null>(null);
  const olderRef = useRef<HTMLButtonElement>(null);
  const newerRef = useRef<HTMLButtonElement>(null);

  const project = useLoad((signal) => consoleApi.project(projectUuid, signal), [projectUuid]);
  const page = useLoad((signal) => consoleApi.tasks(projectUuid, { state, before, limit: PAGE_SIZE }, signal), [projectUuid, state, before]);

  const title = project.state.status === 'ok' ? project.state.data.display_name : 'Project';

  useEffect(() => {
    if (page.state.status === 'loading' || !pressed.current) return;
    const order = pressed.current === 'older' ? [olderRef, newerRef] : [newerRef, olderRef];
    pressed.current = null;
    order.map((ref) => ref.current).find((button) => button && !button.disabled)?.focus();
  }, [page.state]);

  return (
    <div className="page">
      <ProjectHeader uuid={projectUuid} title={title} />
      <div className="cbc-toolbar">
        <div className="cbc-inline-field">
          <label htmlFor={filterId}>Show</label>
          <select
            id={filterId}
            className="input"
            value={state ?? ''}
            data-testid="task-filter"
            onChange={(e) => {
              setParams(e.target.value ? { state: e.target.value } : {}, { replace: true });
            }}
          >
            {FILTERS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
        </div>
        <button type="button" className="button small" onClick={page.reload}>
          Refresh
        </button>
      </div>
      <LoadView state={page.state} label="Loading tasks" onRetry={page.reload}>
        {({ data, next_cursor }) => (
          <>
            {data.length === 0 ? (
              <div className="card cbc-empty">
                <p>
                  {cursors.length > 0
                    ? 'No more tasks.'
                    : state
                      ? `No ${filterLabel(state).toLowerCase()} tasks.`
                      : 'No tasks yet. Add some through the requester API (see the first call on the Overview).'}
                </p>
              </div>
            ) : (
              <div className="table-scroll card cbc-table-card">
                <table className="table" data-testid="task-table">
                  <caption className="visually-hidden">{caption(state, cursors.length + 1)}</caption>
                  <thead>
                    <tr>
                      <th scope="col">Task</th>
                      <th scope="col">State</th>
                      <th scope="col" className="num">
                        Submissions
                      </th>
                      <th scope="col" className="num">
                        Working now
                      </th>
                      <th scope="col" className="num">
                        Reward
                      </th>
                      <th scope="col">Created</th>
                      <th scope="col">Finished</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.map((task) => (
                      <tr key={task.task_uuid} data-testid="task-row" data-task-uuid={task.task_uuid}>
                        <td>
                          <Link to={`/console/projects/${projectUuid}/tasks/${task.task_uuid}`} className="cbc-mono" title={task.task_uuid}>
                            {shortId(task.task_uuid)}
                          </Link>
                        </td>
                        <td>
                          <TaskStateBadge state={task.state} />
                        </td>
                        <td className="num">
                          {task.submission_count} / {task.required_submissions}
                        </td>
                        <td className="num">{task.active_checkouts}</td>
                        <td className="num">{formatCents(task.reward)}</td>
                        <td><DateTime iso={task.created_at} /></td>
                        <td><DateTime iso={task.completed_at ?? task.cancelled_at} /></td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            <nav className="cbc-pager" aria-label="Pages of tasks">
              <button
                ref={newerRef}
                type="button"
                className="button small"
                disabled={cursors.length === 0}
                onClick={() => {
                  pressed.current = 'newer';
                  setCursors(cursors.slice(0, -1));
                }}
              >
                ← Newer
              </button>
              <span className="muted cbc-small">Page {cursors.length + 1}</span>
              <button
                ref={olderRef}
                type="button"
                className="button small"
                disabled={!next_cursor}
                onClick={() => {
                  if (!next_cursor) return;
                  pressed.current = 'older';
                  setCursors([...cursors, next_cursor]);
                }}
              >
                Older →
              </button>
            </nav>
          </>
        )}
      </LoadView>
    </div>
  );
}
