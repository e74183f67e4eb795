import { useEffect, useId, useRef } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { ApiError } from '../../api/client';
import { DateTime } from '../components/date-time';
import { LoadView } from '../components/load-view';
import { consoleApi, type TaskState } from '../lib/console-api';
import { plural, shortId } from '../lib/format';
import { formatCents } from '../../shell/format';
import { useLoad } from '../lib/use-load';
import { ProjectHeader } from '../projects/project-header';
import { readTaskListQuery, taskListSearch } from './task-list-query';
import { fromTaskList } from './task-list-return';
import { TaskStateBadge } from './task-state-badge';

const PAGE_SIZE = 25;
const FILTERS: Array<{ value: TaskState | ''; label: string }> = [
  { value: '', label: 'All tasks' },
  { value: 'incomplete', label: 'Outstanding' },
  { value: 'complete', label: 'Complete' },
  { value: 'cancelled', label: 'Cancelled' },
];

/** The filter's name as its menu shows it: "All tasks", "Outstanding", … */
function filterLabel(state: TaskState | undefined): string {
  return FILTERS.find((f) => f.value === (state ?? ''))?.label ?? '';
}

/** Which tasks the list holds, as the caption and the empty list name them: "Outstanding tasks reported by workers". */
function listName(state: TaskState | undefined, reported: boolean): string {
  return `${state ? `${filterLabel(state)} tasks` : filterLabel(undefined)}${reported ? ' reported by workers' : ''}`;
}

/** Names the list the table shows (for screen readers): which tasks, whose, in what order, which page. */
function caption(state: TaskState | undefined, reported: boolean, worker: string | undefined, page: number): string {
  return `${listName(state, reported)}${worker ? ` that ${worker} submitted to` : ''}, newest first, page ${page}`;
}

function emptyText(state: TaskState | undefined, reported: boolean, worker: string | undefined): string {
  if (worker) {
    if (!state && !reported) return `${worker} submitted to no task of this project.`;
    return `${worker} submitted to no ${state ? listName(state, reported).toLowerCase() : `task${reported ? ' reported by workers' : ''}`}.`;
  }
  if (reported) return state ? `No ${listName(state, true).toLowerCase()}.` : 'No task has been reported by workers.';
  if (state) return `No ${filterLabel(state).toLowerCase()} tasks.`;
  return 'No tasks yet. Add some through the requester API (see the first call on the Overview).';
}

/**
 * /console/projects/:uuid/tasks: newest first, filtered by state, by workers' problem reports and by the
 * worker who submitted (reached from the project's Workers page), 25 a page. The filters and the page are
 * kept in the address (task-list-query.ts); the filters and the project's Tasks tab leave the cursors out,
 * so another filter starts on its page 1.
 */
export function TaskListPage() {
  const { projectUuid = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const { state, reported, worker, cursors } = readTaskListQuery(params);
  const before = cursors[cursors.length - 1];
  // Each task's link hands the list's search on, so the task page leads back to this list (task-list-return.ts).
  const from = fromTaskList(params);
  const setCursors = (next: string[]) => setParams(taskListSearch({ state, reported, worker, cursors: next }));
  // A filter replaces the entry, as the menu always has: Back leaves the list rather than undoing a filter.
  const setFilters = (filters: { state: TaskState | undefined; reported: boolean; worker: string | undefined }) =>
    setParams(taskListSearch(filters), { replace: true });
  const filterId = useId();
  // The control pressed goes with the filter it removed; the filters' menu, still there, takes the focus.
  const showAllWorkers = () => {
    setFilters({ state, reported, worker: undefined });
    document.getElementById(filterId)?.focus();
  };
  // The pager is gone while the next page loads, taking the focus with it: the button pressed gets it
  // back, or the other one when the pressed one is disabled now (at the first or the last page).
  const pressed = useRef<'older' | 'newer' | null>(null);
  const olderRef = useRef<HTMLButtonElement>(null);
  const newerRef = useRef<HTMLButtonElement>(null);

  const project = useLoad((signal) => consoleApi.project(projectUuid, signal), [projectUuid]);
  const page = useLoad(
    (signal) => consoleApi.tasks(projectUuid, { state, reported, worker, before, limit: PAGE_SIZE }, signal),
    [projectUuid, state, reported, worker, before],
  );

  const title = project.state.status === 'ok' ? project.state.data.display_name : 'Project';
  // A page's address the API no longer takes (edited by hand, or made by an older release's cursor):
  // Try again would fail the same way, so the way out is the list's first page, filters kept.
  const refused = (field: string) => page.state.status === 'error' && page.state.error instanceof ApiError && page.state.error.fieldError(field) !== undefined;
  const staleCursor = refused('before');
  // Likewise a worker's name the API refuses (typed into the address by hand): the way out is everyone's tasks.
  const badWorker = worker !== undefined && refused('worker');

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
            onChange={(e) => setFilters({ state: (e.target.value as TaskState) || undefined, reported, worker })}
          >
            {FILTERS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
        </div>
        <label className="cbc-check">
          <input type="checkbox" checked={reported} data-testid="reported-filter" onChange={(e) => setFilters({ state, reported: e.target.checked, worker })} />
          Reported by workers
        </label>
        <button type="button" className="button small" onClick={page.reload}>
          Refresh
        </button>
      </div>
      {worker && !badWorker && (
        <div className="cbc-toolbar cbc-worker-filter" data-testid="worker-filter">
          <p>
            Tasks <strong className="cbc-mono">{worker}</strong> submitted to
          </p>
          <button type="button" className="button small" onClick={showAllWorkers}>
            Show all workers’ tasks
          </button>
        </div>
      )}
      {badWorker ? (
        <div className="card cbc-empty" role="alert" data-testid="worker-refused">
          <p>
            “{worker}” is not the name of a worker. Workers are named as the project’s Workers page shows them, such as worker_3fa9c2d1e0b4.
          </p>
          <button type="button" className="button" autoFocus onClick={showAllWorkers}>
            Show all workers’ tasks
          </button>
        </div>
      ) : staleCursor ? (
        <div className="card cbc-empty" role="alert">
          <p>This link to a later page of the list no longer works.</p>
          <button type="button" className="button" autoFocus onClick={() => setCursors([])}>
            Show the newest tasks
          </button>
        </div>
      ) : (
        <LoadView state={page.state} label="Loading tasks" onRetry={page.reload}>
          {({ data, next_cursor }) => (
            <>
              {data.length === 0 ? (
                <div className="card cbc-empty">
                  <p>
                    {cursors.length > 0 ? 'No more tasks.' : emptyText(state, reported, worker)}
                  </p>
                </div>
              ) : (
                <div className="table-scroll card cbc-table-card">
                  <table className="table" data-testid="task-table">
                    <caption className="visually-hidden">{caption(state, reported, worker, cursors.length + 1)}</caption>
                    <thead>
                      <tr>
                        <th scope="col">Task</th>
                        <th scope="col">State</th>
                        <th scope="col">Problems</th>
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
                            <Link to={`/console/projects/${projectUuid}/tasks/${task.task_uuid}`} state={from} className="cbc-mono" title={task.task_uuid}>
                              {shortId(task.task_uuid)}
                            </Link>
                          </td>
                          <td>
                            <TaskStateBadge state={task.state} />
                          </td>
                          <td>
                            {task.problem_reports > 0 ? (
                              <span className="cbc-reported" data-testid="task-problem-reports">
                                <span aria-hidden="true">⚠ </span>
                                {plural(task.problem_reports, 'problem report')}
                              </span>
                            ) : (
                              <span className="muted">—</span>
                            )}
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
      )}
    </div>
  );
}
