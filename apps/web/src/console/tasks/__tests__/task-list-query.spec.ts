import { describe, expect, it } from '@jest/globals';
import { readTaskListQuery, taskListPath, taskListSearch } from '../task-list-query';

describe('the task list in its address', () => {
  it('reads back the filters and the cursors it wrote, in their order', () => {
    const query = { state: 'incomplete' as const, reported: true, cursors: ['c1', 'c2'] };
    const search = taskListSearch(query);
    expect(search.toString()).toBe('state=incomplete&reported=true&before=c1&before=c2');
    expect(readTaskListQuery(new URLSearchParams(search.toString()))).toEqual(query);
  });

  it('leaves out what is not set, so All tasks on page 1 has no search at all', () => {
    expect(taskListSearch({ reported: false }).toString()).toBe('');
    expect(readTaskListQuery(new URLSearchParams(''))).toEqual({ state: undefined, reported: false, worker: undefined, cursors: [] });
  });

  it('ignores an unknown state and any reported but "true" (a hand-edited address), as the API would refuse them', () => {
    expect(readTaskListQuery(new URLSearchParams('state=pending&reported=yes'))).toEqual({ state: undefined, reported: false, worker: undefined, cursors: [] });
  });

  it('keeps a worker filter beside the others and their cursors', () => {
    const query = { state: 'complete' as const, reported: true, worker: 'worker_3fa9c2d1e0b4', cursors: ['c1'] };
    const search = taskListSearch(query);
    expect(search.toString()).toBe('state=complete&reported=true&worker=worker_3fa9c2d1e0b4&before=c1');
    expect(readTaskListQuery(new URLSearchParams(search.toString()))).toEqual(query);
    expect(readTaskListQuery(new URLSearchParams('worker=worker_3fa9c2d1e0b4'))).toEqual({ state: undefined, reported: false, worker: 'worker_3fa9c2d1e0b4', cursors: [] });
  });

  it('reads a worker as results write them (lower case), a blank one as none, and any other name as written, for the API to judge', () => {
    expect(readTaskListQuery(new URLSearchParams('worker=WORKER_3FA9C2D1E0B4')).worker).toBe('worker_3fa9c2d1e0b4');
    expect(readTaskListQuery(new URLSearchParams('worker=')).worker).toBeUndefined();
    expect(readTaskListQuery(new URLSearchParams('worker=%20%20')).worker).toBeUndefined();
    // Dropping it would list every worker's tasks under an address that names one: the page says it is refused instead.
    expect(readTaskListQuery(new URLSearchParams('worker=bob')).worker).toBe('bob');
  });

  it('links to page 1 of a filtered list', () => {
    expect(taskListPath('p-1', { state: 'incomplete', reported: true })).toBe('/console/projects/p-1/tasks?state=incomplete&reported=true');
    expect(taskListPath('p-1', { worker: 'worker_3fa9c2d1e0b4' })).toBe('/console/projects/p-1/tasks?worker=worker_3fa9c2d1e0b4');
    expect(taskListPath('p-1')).toBe('/console/projects/p-1/tasks');
  });
});
