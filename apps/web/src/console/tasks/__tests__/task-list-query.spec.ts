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
    expect(readTaskListQuery(new URLSearchParams(''))).toEqual({ state: undefined, reported: false, cursors: [] });
  });

  it('ignores an unknown state and any reported but "true" (a hand-edited address), as the API would refuse them', () => {
    expect(readTaskListQuery(new URLSearchParams('state=pending&reported=yes'))).toEqual({ state: undefined, reported: false, cursors: [] });
  });

  it('links to page 1 of a filtered list', () => {
    expect(taskListPath('p-1', { state: 'incomplete', reported: true })).toBe('/console/projects/p-1/tasks?state=incomplete&reported=true');
    expect(taskListPath('p-1')).toBe('/console/projects/p-1/tasks');
  });
});
