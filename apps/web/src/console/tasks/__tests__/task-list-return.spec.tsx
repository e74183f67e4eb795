import { afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { TextEncoder } from 'node:util';
import type { ConsoleTaskDetail, ConsoleTaskRow } from '../../lib/console-api';
import { installDialog } from '../../__tests__/jsdom-dialog';
import { taskListReturnPath } from '../task-list-return';

// react-router needs TextEncoder, which jsdom lacks: the router and the pages are imported once it is there.
let router: typeof import('react-router');
let listPage: typeof import('../task-list-page');
let taskPage: typeof import('../task-page');
beforeAll(async () => {
  installDialog();
  Object.assign(globalThis, { TextEncoder });
  [router, listPage, taskPage] = await Promise.all([import('react-router'), import('../task-list-page'), import('../task-page')]);
});

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

const PROJECT = '6f1c1b2e-0000-4000-8000-00000000000a';
const TASK = '6f1c1b2e-0000-4000-8000-000000000001';
const CARL = 'worker_3fa9c2d1e0b4';
const LIST = `/console/projects/${PROJECT}/tasks`;

const row: ConsoleTaskRow = {
  task_uuid: TASK,
  state: 'complete',
  external_image_url: null,
  problem_reports: 0,
  submission_count: 1,
  required_submissions: 1,
  active_checkouts: 0,
  reward: 5,
  created_at: '2026-01-02T03:04:05.000Z',
  completed_at: '2026-01-02T04:04:05.000Z',
  cancelled_at: null,
};
const detail: ConsoleTaskDetail = {
  ...row,
  prompt: '<p>Draw the cars</p>',
  labels: [],
  frame: null,
  problems: [],
  results: { task_uuid: TASK, completed: true, completed_at: row.completed_at, annotations: [], submissions: [] },
  blocked_workers: [],
  peer_agreement: [],
};

/** fetch answering the console's reads by address: the project, its task list (one task) and the task. */
function answerTheConsole() {
  globalThis.fetch = (async (url: string) => {
    const path = new URL(url, 'http://x').pathname;
    const body =
      path === `/api/console/projects/${PROJECT}`
        ? { data: { uuid: PROJECT, display_name: 'Find the cars' } }
        : path === `/api/console/projects/${PROJECT}/tasks`
          ? { data: [row], next_cursor: null }
          : { data: detail };
    return { ok: true, status: 200, statusText: '', headers: { get: () => null }, text: async () => JSON.stringify(body) } as unknown as Response;
  }) as typeof fetch;
}

/** The console's task list and task page at `entry`, with the address it is at now shown beside them. */
function renderAt(entry: string) {
  function Address() {
    const location = router.useLocation();
    return <output data-testid="address">{`${location.pathname}${location.search}`}</output>;
  }
  answerTheConsole();
  return render(
    <router.MemoryRouter initialEntries={[entry]}>
      <router.Routes>
        <router.Route path="/console/projects/:projectUuid/tasks" element={<listPage.TaskListPage />} />
        <router.Route path="/console/projects/:projectUuid/tasks/:taskUuid" element={<taskPage.TaskPage />} />
      </router.Routes>
      <Address />
    </router.MemoryRouter>,
  );
}

/** Opens the list's one task by its link, as a requester does. */
async function openTheTask() {
  const link = await screen.findByRole('link', { name: '6f1c1b2e…' });
  await act(async () => fireEvent.click(link));
}

const address = () => screen.getByTestId('address').textContent;
const crumbs = () => screen.getByRole('navigation', { name: 'Breadcrumb' });
/** The task page's two ways back to the list: the Tasks crumb and "Back to the tasks". */
async function waysBack() {
  await screen.findByRole('link', { name: 'Back to the tasks' });
  return [within(crumbs()).getByRole('link', { name: 'Tasks' }), screen.getByRole('link', { name: 'Back to the tasks' })].map((link) => link.getAttribute('href'));
}

describe('the task page’s way back to the task list', () => {
  it('leads to the list it was opened from, its filters and page kept', async () => {
    const filtered = `?state=complete&reported=true&worker=${CARL}&before=c1`;
    renderAt(`${LIST}${filtered}`);
    await openTheTask();
    expect(address()).toBe(`${LIST}/${TASK}`);
    expect(await waysBack()).toEqual([`${LIST}${filtered}`, `${LIST}${filtered}`]);

    await act(async () => fireEvent.click(within(crumbs()).getByRole('link', { name: 'Tasks' })));
    expect(address()).toBe(`${LIST}${filtered}`);
    expect(await screen.findByTestId('worker-filter')).toBeTruthy();
  });

  it('leads to the whole list when the task was opened from an unfiltered list', async () => {
    renderAt(LIST);
    await openTheTask();
    expect(await waysBack()).toEqual([LIST, LIST]);
  });

  it('leads to the whole list when the task was opened otherwise (a copied link, a new tab)', async () => {
    renderAt(`${LIST}/${TASK}`);
    expect(await waysBack()).toEqual([LIST, LIST]);
  });
});

describe('taskListReturnPath', () => {
  it('reads what the entry carries through the list’s own parser', () => {
    expect(taskListReturnPath(PROJECT, { taskListSearch: `worker=${CARL.toUpperCase()}&state=bogus&x=1` })).toBe(`${LIST}?worker=${CARL}`);
    expect(taskListReturnPath(PROJECT, { notice: 'another page’s state' })).toBe(LIST);
    expect(taskListReturnPath(PROJECT, 'text')).toBe(LIST);
    expect(taskListReturnPath(PROJECT, null)).toBe(LIST);
  });
});
