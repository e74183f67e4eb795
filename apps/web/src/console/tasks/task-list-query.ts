import type { TaskState } from '../lib/console-api';

/**
 * What the task list shows, as its address holds it: `?state=incomplete&reported=true&worker=…&before=…`. The
 * address is the list's only store, so Back from a task, a reload or a copied link shows the same page.
 */
export interface TaskListQuery {
  state?: TaskState;
  /** Only tasks that at least one worker gave back reporting a problem. */
  reported: boolean;
  /**
   * Only the tasks this worker (their pseudonym in the project's results, `worker_…`) submitted to. Kept
   * as written rather than checked here: the API is the judge of a name, and an address naming a worker
   * must not quietly list everyone's tasks, so a name it refuses is shown as refused (the list page).
   */
  worker?: string;
  /** The cursors of the pages stepped through to this one (`before`, repeated), the last being this page's. */
  cursors: string[];
}

/** The pseudonym in lower case as results write it (the API takes either); blank is no filter. */
function parseWorker(value: string | null): string | undefined {
  return value?.trim().toLowerCase() || undefined;
}

function parseState(value: string | null): TaskState | undefined {
  return value === 'incomplete' || value === 'complete' || value === 'cancelled' ? value : undefined;
}

export function readTaskListQuery(params: URLSearchParams): TaskListQuery {
  return {
    state: parseState(params.get('state')),
    reported: params.get('reported') === 'true',
    worker: parseWorker(params.get('worker')),
    cursors: params.getAll('before'),
  };
}

/** The search part of the address for `query`; the filters without cursors start on their page 1. */
export function taskListSearch({ state, reported, worker, cursors = [] }: Partial<TaskListQuery>): URLSearchParams {
  const search = new URLSearchParams();
  if (state) search.set('state', state);
  if (reported) search.set('reported', 'true');
  if (worker) search.set('worker', worker);
  for (const cursor of cursors) search.append('before', cursor);
  return search;
}

/** The task list's address with these filters, on page 1: for links from other pages. */
export function taskListPath(projectUuid: string, filters: Pick<Partial<TaskListQuery>, 'state' | 'reported' | 'worker'> = {}): string {
  const search = taskListSearch(filters).toString();
  return `/console/projects/${projectUuid}/tasks${search ? `?${search}` : ''}`;
}
