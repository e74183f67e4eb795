import { afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { TextEncoder } from 'node:util';
import { answerInTurn, type FetchCall } from '../../../api/__tests__/fake-fetch';
import type { ConsoleTaskRow } from '../../lib/console-api';

// react-router needs TextEncoder, which jsdom lacks: the router and the page are imported once it is there.
let router: typeof import('react-router');
let page: typeof import('../task-list-page');
beforeAll(async () => {
  Object.assign(globalThis, { TextEncoder });
  [router, page] = await Promise.all([import('react-router'), import('../task-list-page')]);
});

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

const PROJECT = '6f1c1b2e-0000-4000-8000-00000000000a';
const CARL = 'worker_3fa9c2d1e0b4';
// The page reads the project for its header first: only its name matters here.
const PROJECT_ANSWER: [number, unknown] = [200, { data: { uuid: PROJECT, display_name: 'Find the cars' } }];

function aTask(taskUuid: string): ConsoleTaskRow {
  return {
    task_uuid: taskUuid,
    state: 'complete',
    external_image_url: null,
    problem_reports: 0,
    submission_count: 3,
    required_submissions: 3,
    active_checkouts: 0,
    reward: 5,
    created_at: '2026-01-02T03:04:05.000Z',
    completed_at: '2026-01-02T04:04:05.000Z',
    cancelled_at: null,
  };
}

function tasks(rows: ConsoleTaskRow[], nextCursor: string | null = null): [number, unknown] {
  return [200, { data: rows, next_cursor: nextCursor }];
}

/** The page at `search`, with the address it is at now shown beside it. */
function renderAt(search: string) {
  function Address() {
    const location = router.useLocation();
    return <output data-testid="address">{location.search}</output>;
  }
  return render(
    <router.MemoryRouter initialEntries={[`/console/projects/${PROJECT}/tasks${search}`]}>
      <router.Routes>
        <router.Route
          path="/console/projects/:projectUuid/tasks"
          element={
            <>
              <page.TaskListPage />
              <Address />
            </>
          }
        />
      </router.Routes>
    </router.MemoryRouter>,
  );
}

const address = () => screen.getByTestId('address').textContent;
/** The task list calls made, as their search parts. */
const listSearches = (calls: FetchCall[]) => calls.filter((c) => c.url.includes('/tasks')).map((c) => new URL(c.url, 'http://x').search);

describe('the task list filtered to one worker', () => {
  it('asks the API for that worker’s tasks and says whose they are above the list', async () => {
    const calls = answerInTurn(PROJECT_ANSWER, tasks([aTask('t-1')]));
    renderAt(`?state=complete&worker=${CARL}`);
    await screen.findByTestId('task-table');
    expect(listSearches(calls)).toEqual([`?state=complete&worker=${CARL}&limit=25`]);
    expect(screen.getByTestId('worker-filter').textContent).toBe(`Tasks ${CARL} submitted toShow all workers’ tasks`);
    expect(screen.getByRole('table').querySelector('caption')?.textContent).toBe(`Complete tasks that ${CARL} submitted to, newest first, page 1`);
  });

  it('shows no worker filter without one in the address', async () => {
    const calls = answerInTurn(PROJECT_ANSWER, tasks([aTask('t-1')]));
    renderAt('');
    await screen.findByTestId('task-table');
    expect(listSearches(calls)).toEqual(['?limit=25']);
    expect(screen.queryByTestId('worker-filter')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Show all workers’ tasks' })).toBeNull();
  });

  it('keeps the worker through the other filters and the pager', async () => {
    const calls = answerInTurn(PROJECT_ANSWER, tasks([aTask('t-1')], 'c1'));
    renderAt(`?worker=${CARL}`);
    await screen.findByTestId('task-table');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Older →' })));
    expect(address()).toBe(`?worker=${CARL}&before=c1`);
    await act(async () => fireEvent.change(screen.getByTestId('task-filter'), { target: { value: 'incomplete' } }));
    expect(address()).toBe(`?state=incomplete&worker=${CARL}`);
    await act(async () => fireEvent.click(screen.getByTestId('reported-filter')));
    expect(address()).toBe(`?state=incomplete&reported=true&worker=${CARL}`);
    await screen.findByTestId('task-table');
    expect(listSearches(calls).at(-1)).toBe(`?state=incomplete&worker=${CARL}&limit=25&reported=true`);
  });

  it('removes the worker filter, keeping the others, on page 1, and gives the focus to the filters', async () => {
    const calls = answerInTurn(PROJECT_ANSWER, tasks([aTask('t-1')]));
    renderAt(`?state=complete&worker=${CARL}&before=c1`);
    await screen.findByTestId('task-table');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Show all workers’ tasks' })));
    expect(address()).toBe('?state=complete');
    expect(screen.queryByTestId('worker-filter')).toBeNull();
    expect(document.activeElement).toBe(screen.getByTestId('task-filter'));
    await screen.findByTestId('task-table');
    expect(listSearches(calls).at(-1)).toBe('?state=complete&limit=25');
  });

  it('says that worker submitted to no task matching, when none does', async () => {
    answerInTurn(PROJECT_ANSWER, tasks([]));
    renderAt(`?worker=${CARL}`);
    expect((await screen.findByText(/submitted to no/)).textContent).toBe(`${CARL} submitted to no task of this project.`);
  });

  it('names the other filters too in that worker’s empty list', async () => {
    answerInTurn(PROJECT_ANSWER, tasks([]));
    renderAt(`?state=incomplete&reported=true&worker=${CARL}`);
    expect((await screen.findByText(/submitted to no/)).textContent).toBe(`${CARL} submitted to no outstanding tasks reported by workers.`);
  });

  it('says a name the API refuses is not a worker’s, with the way back to everyone’s tasks (filters kept)', async () => {
    const refusal: [number, unknown] = [422, { errors: [{ field: 'worker', detail: 'must be a worker of the results, such as worker_3fa9c2d1e0b4' }] }];
    const calls = answerInTurn(PROJECT_ANSWER, refusal, tasks([aTask('t-1')]));
    renderAt('?reported=true&worker=bob');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('“bob” is not the name of a worker.');
    // The filter above the list would contradict it.
    expect(screen.queryByTestId('worker-filter')).toBeNull();
    const back = screen.getByRole('button', { name: 'Show all workers’ tasks' });
    expect(document.activeElement).toBe(back);
    await act(async () => fireEvent.click(back));
    expect(address()).toBe('?reported=true');
    await screen.findByTestId('task-table');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(listSearches(calls)).toEqual(['?worker=bob&limit=25&reported=true', '?limit=25&reported=true']);
  });
});
