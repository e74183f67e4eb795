import { readTaskListQuery, taskListSearch } from './task-list-query';

/**
 * What the task list's link to a task carries in the history entry (router state): the list's search,
 * so the task page leads back to the list as it was, filters and page, and not to the whole list. State
 * rather than a query parameter: the task's address stays the task's alone, to copy or bookmark, and the
 * entry keeps its state through a reload. A task opened otherwise (a copied link, a new tab, after logging
 * in again) has none, and leads to the project's whole list.
 */
export interface FromTaskList {
  taskListSearch: string;
}

export function fromTaskList(params: URLSearchParams): FromTaskList {
  return { taskListSearch: taskListSearch(readTaskListQuery(params)).toString() };
}

/**
 * The list the task page leads back to. The state is read through the list's own parser, so whatever
 * the entry holds (another page's state, an older release's) gives a list address the list understands.
 */
export function taskListReturnPath(projectUuid: string, state: unknown): string {
  const carried = (state as Partial<FromTaskList> | null)?.taskListSearch;
  const search = typeof carried === 'string' ? taskListSearch(readTaskListQuery(new URLSearchParams(carried))).toString() : '';
  return `/console/projects/${projectUuid}/tasks${search ? `?${search}` : ''}`;
}
