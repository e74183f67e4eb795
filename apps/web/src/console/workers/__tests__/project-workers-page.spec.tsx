import { afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { TextEncoder } from 'node:util';
import { answerInTurn } from '../../../api/__tests__/fake-fetch';
import type { BlockWorkerResult, ProjectWorkerRow, ProjectWorkersResponse } from '../../lib/console-api';
import { installDialog } from '../../__tests__/jsdom-dialog';

// react-router needs TextEncoder, which jsdom lacks: the router and the page are imported once it is there.
let router: typeof import('react-router');
let page: typeof import('../project-workers-page');
beforeAll(async () => {
  installDialog();
  Object.assign(globalThis, { TextEncoder });
  [router, page] = await Promise.all([import('react-router'), import('../project-workers-page')]);
});

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
  jest.restoreAllMocks();
});

const PROJECT = '6f1c1b2e-0000-4000-8000-00000000000a';
// The page reads the project for its header first: only its name matters here.
const PROJECT_ANSWER: [number, unknown] = [200, { data: { uuid: PROJECT, display_name: 'Find the cars' } }];

function aRow(overrides: Partial<ProjectWorkerRow>): ProjectWorkerRow {
  return {
    worker: 'worker_000000000000',
    submissions: 10,
    last_submitted_at: '2026-01-02T03:04:05.000Z',
    compared_tasks: 8,
    boxes: 20,
    peer_boxes: 20,
    matched: 15,
    agreement: 0.75,
    precision: 0.75,
    recall: 0.75,
    block_id: null,
    ...overrides,
  };
}

const CARL = aRow({ worker: 'worker_3fa9c2d1e0b4', submissions: 1234, compared_tasks: 1, agreement: 0.424, precision: 0.5, recall: 0.356 });
// Drew nothing on the tasks compared: no precision. Listed after Carl although agreeing more, as the server orders them.
const NORA = aRow({ worker: 'worker_0123456789ab', compared_tasks: 5, boxes: 0, matched: 0, agreement: 0.9, precision: null, recall: 0 });
// Never compared: the server puts them last, with no figure.
const SOLO = aRow({ worker: 'worker_aaaaaaaaaaaa', submissions: 2, compared_tasks: 0, boxes: 0, peer_boxes: 0, matched: 0, agreement: null, precision: null, recall: null });

function workers(rows: ProjectWorkerRow[], tasksRead = 12): [number, { data: ProjectWorkersResponse }] {
  return [200, { data: { tasks_read: tasksRead, workers: rows } }];
}

function renderPage() {
  return render(
    <router.MemoryRouter initialEntries={[`/console/projects/${PROJECT}/workers`]}>
      <router.Routes>
        <router.Route path="/console/projects/:projectUuid/workers" element={<page.ProjectWorkersPage />} />
      </router.Routes>
    </router.MemoryRouter>,
  );
}

/** Each row's cells as they read, the time as its exact value; the last cell's text (a button's label or "blocked"). */
function rows() {
  return screen.getAllByTestId('project-worker-row').map((row) =>
    Array.from(row.querySelectorAll('td')).map((td) => td.querySelector('time')?.getAttribute('datetime') ?? td.textContent),
  );
}

describe('the project’s Workers page', () => {
  it('shows each worker’s figures as percentages, "—" where there is none, in the order the server gives', async () => {
    const calls = answerInTurn(PROJECT_ANSWER, workers([CARL, NORA, SOLO]));
    renderPage();
    await screen.findByTestId('project-workers-table');
    expect(calls.map((c) => c.url)).toEqual([`/api/console/projects/${PROJECT}`, `/api/console/projects/${PROJECT}/workers`]);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Find the cars');
    expect(screen.getByRole('link', { name: 'Workers' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Worker',
      'Submissions',
      'Compared tasks',
      'Agreement',
      'Their boxes others drew too',
      'Others’ boxes they drew too',
      'Last submitted',
      'Block',
    ]);
    expect(rows()).toEqual([
      [CARL.worker, '1,234', '1 (few)', '42 %', '50 %', '36 %', CARL.last_submitted_at, 'Block worker…'],
      [NORA.worker, '10', '5', '90 %', '—', '0 %', NORA.last_submitted_at, 'Block worker…'],
      [SOLO.worker, '2', '0 (few)', '—', '—', '—', SOLO.last_submitted_at, 'Block worker…'],
    ]);
    expect(screen.getByTestId('project-workers-about').textContent).toContain('Read from the latest 12 completed tasks of this project.');
  });

  it('links each worker’s pseudonym to the project’s tasks they submitted to', async () => {
    answerInTurn(PROJECT_ANSWER, workers([CARL, { ...NORA, block_id: 'block-7' }]));
    renderPage();
    await screen.findByTestId('project-workers-table');
    const carl = screen.getByRole('link', { name: `${CARL.worker}: their tasks` });
    expect(carl.textContent).toBe(CARL.worker);
    expect(carl.getAttribute('href')).toBe(`/console/projects/${PROJECT}/tasks?worker=${CARL.worker}`);
    // A blocked worker's tasks are as worth a look.
    expect(screen.getByRole('link', { name: `${NORA.worker}: their tasks` }).getAttribute('href')).toBe(`/console/projects/${PROJECT}/tasks?worker=${NORA.worker}`);
  });

  it('says the latest 1,000 tasks were read when the server stopped there', async () => {
    answerInTurn(PROJECT_ANSWER, workers([CARL], 1000));
    renderPage();
    expect((await screen.findByTestId('project-workers-about')).textContent).toContain('Read from the latest 1,000 completed tasks of this project.');
  });

  it('says "blocked" for a worker the account blocked, linked to the Blocked workers page, with no Block button', async () => {
    answerInTurn(PROJECT_ANSWER, workers([CARL, { ...NORA, block_id: 'block-7' }]));
    renderPage();
    await screen.findByTestId('project-workers-table');
    expect(rows().map((cells) => cells[7])).toEqual(['Block worker…', 'blocked']);
    const link = screen.getByRole('link', { name: `${NORA.worker} is blocked: see Blocked workers` });
    expect(link.textContent).toBe('blocked');
    expect(link.getAttribute('href')).toBe('/console/workers');
    expect(screen.queryByRole('button', { name: `Block ${NORA.worker}…` })).toBeNull();
  });

  it('blocks a worker from their row through the confirmation, says what the server did and reads the list again', async () => {
    const result: BlockWorkerResult = {
      id: 'block-1',
      worker: CARL.worker,
      project: { uuid: PROJECT, display_name: 'Find the cars' },
      blocked_at: '2026-01-03T00:00:00.000Z',
      created: true,
      ended_checkouts: 0,
    };
    // The list read again is left unanswered: the row says "blocked" at once, from the block's answer.
    const calls = answerInTurn(PROJECT_ANSWER, workers([CARL, NORA]), [200, { data: result }], 'no answer yet');
    renderPage();
    await screen.findByTestId('project-workers-table');
    fireEvent.click(screen.getByRole('button', { name: `Block ${CARL.worker}…` }));
    const dialog = screen.getByRole('dialog', { name: `Block ${CARL.worker}?` });
    expect(within(dialog).getByTestId('block-worker-summary').textContent).toContain('They get no more tasks from any of your projects.');
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Block worker' })));
    expect(calls.slice(2).map((c) => [c.init.method ?? 'GET', c.url])).toEqual([
      ['POST', `/api/console/projects/${PROJECT}/workers/${CARL.worker}/block`],
      ['GET', `/api/console/projects/${PROJECT}/workers`],
    ]);
    const status = screen.getByRole('status');
    expect(status.textContent).toBe(`${CARL.worker} is blocked. They held none of your tasks. Blocked workers`);
    expect(document.activeElement).toBe(status);
    expect(rows().map((cells) => cells[7])).toEqual(['blocked', 'Block worker…']);
  });

  it('shows the list read again after a block: a block made elsewhere meanwhile shows too', async () => {
    const result: BlockWorkerResult = { id: 'b-1', worker: CARL.worker, project: { uuid: PROJECT, display_name: 'Find the cars' }, blocked_at: '2026-01-03T00:00:00.000Z', created: true, ended_checkouts: 1 };
    answerInTurn(PROJECT_ANSWER, workers([CARL, NORA]), [200, { data: result }], workers([{ ...CARL, block_id: 'b-1' }, { ...NORA, block_id: 'b-2' }]));
    renderPage();
    await screen.findByTestId('project-workers-table');
    fireEvent.click(screen.getByRole('button', { name: `Block ${CARL.worker}…` }));
    await act(async () => fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Block worker' })));
    await screen.findByRole('link', { name: `${NORA.worker} is blocked: see Blocked workers` });
    expect(rows().map((cells) => cells[7])).toEqual(['blocked', 'blocked']);
  });

  it('says so when no task of the project is complete yet', async () => {
    answerInTurn(PROJECT_ANSWER, workers([], 0));
    renderPage();
    const empty = await screen.findByTestId('project-workers-empty');
    expect(empty.textContent).toContain('No task of this project is complete yet.');
    expect(screen.queryByTestId('project-workers-table')).toBeNull();
  });
});
