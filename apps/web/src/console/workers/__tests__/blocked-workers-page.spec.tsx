import { afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { TextEncoder } from 'node:util';
import { answerInTurn } from '../../../api/__tests__/fake-fetch';
import type { BlockedWorkerResponse } from '../../lib/console-api';

// react-router needs TextEncoder, which jsdom lacks: the router and the page are imported once it is there.
let router: typeof import('react-router');
let page: typeof import('../blocked-workers-page');
beforeAll(async () => {
  Object.assign(globalThis, { TextEncoder });
  [router, page] = await Promise.all([import('react-router'), import('../blocked-workers-page')]);
});

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
  jest.restoreAllMocks();
});

const CARS = { uuid: '6f1c1b2e-0000-4000-8000-00000000000a', display_name: 'Find the cars' };
const BIKES = { uuid: '6f1c1b2e-0000-4000-8000-00000000000b', display_name: 'Count the bicycles' };
const NEWER: BlockedWorkerResponse = { id: 'b-2', worker: 'worker_0123456789ab', project: BIKES, blocked_at: '2026-01-02T00:00:00.000Z' };
const OLDER: BlockedWorkerResponse = { id: 'b-1', worker: 'worker_3fa9c2d1e0b4', project: CARS, blocked_at: '2026-01-01T00:00:00.000Z' };

function renderPage() {
  return render(
    <router.MemoryRouter>
      <page.BlockedWorkersPage />
    </router.MemoryRouter>,
  );
}

/** Each row as it reads: the worker, the project and where its link goes, the exact time blocked. */
function rows() {
  return screen.getAllByTestId('blocked-worker-row').map((row) => {
    const cells = row.querySelectorAll('td');
    return {
      worker: cells[0].textContent,
      project: cells[1].textContent,
      href: cells[1].querySelector('a')?.getAttribute('href'),
      blockedAt: cells[2].querySelector('time')?.getAttribute('datetime'),
    };
  });
}

describe('the Blocked workers page', () => {
  it('lists the blocks as the API orders them, each with its project linked and the time it was made', async () => {
    const calls = answerInTurn([200, { data: [NEWER, OLDER] }]);
    renderPage();
    await screen.findByTestId('blocked-workers-table');
    expect(calls.map((c) => c.url)).toEqual(['/api/console/blocked_workers']);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Blocked workers');
    expect(rows()).toEqual([
      { worker: NEWER.worker, project: 'Count the bicycles', href: `/console/projects/${BIKES.uuid}`, blockedAt: NEWER.blocked_at },
      { worker: OLDER.worker, project: 'Find the cars', href: `/console/projects/${CARS.uuid}`, blockedAt: OLDER.blocked_at },
    ]);
    expect(screen.queryByTestId('blocked-workers-empty')).toBeNull();
  });

  it('unblocks a worker: deletes that block, the row goes at once and a status says so, with the focus', async () => {
    // The list, the DELETE's answer, then the list read again, which is slow to come: the row goes before it.
    const calls = answerInTurn([200, { data: [NEWER, OLDER] }], [200, { data: OLDER }], 'no answer yet');
    renderPage();
    await screen.findByTestId('blocked-workers-table');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: `Unblock ${OLDER.worker}` })));
    expect(calls[1]).toMatchObject({ url: '/api/console/blocked_workers/b-1', init: { method: 'DELETE' } });
    expect(rows().map((r) => r.worker)).toEqual([NEWER.worker]);
    const status = screen.getByRole('status');
    expect(status.textContent).toBe(`${OLDER.worker} is unblocked: they can take your tasks again.`);
    expect(document.activeElement).toBe(status);
    expect(calls.map((c) => c.url)).toEqual(['/api/console/blocked_workers', '/api/console/blocked_workers/b-1', '/api/console/blocked_workers']);
  });

  it('shows the empty state once the last block is removed', async () => {
    answerInTurn([200, { data: [OLDER] }], [200, { data: OLDER }], 'no answer yet');
    renderPage();
    await screen.findByTestId('blocked-workers-table');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: `Unblock ${OLDER.worker}` })));
    expect(screen.getByTestId('blocked-workers-empty')).toBeTruthy();
    expect(screen.queryByTestId('blocked-workers-table')).toBeNull();
  });

  it('says, when no worker is blocked, where a worker is blocked from', async () => {
    answerInTurn([200, { data: [] }]);
    renderPage();
    const empty = await screen.findByTestId('blocked-workers-empty');
    expect(empty.textContent).toContain('No worker is blocked. To block one, open a task of a project and press “Block worker…”');
    expect(within(empty).getByRole('link', { name: 'Your projects' }).getAttribute('href')).toBe('/console');
  });

  it('shows the API’s refusal and reads the list again when the block was gone already', async () => {
    const calls = answerInTurn([200, { data: [OLDER] }], [404, { errors: [{ field: 'root', detail: 'blocked worker not found' }] }], [200, { data: [] }]);
    renderPage();
    await screen.findByTestId('blocked-workers-table');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: `Unblock ${OLDER.worker}` })));
    expect(screen.getByRole('alert').textContent).toBe(`${OLDER.worker} was not unblocked.blocked worker not found`);
    expect(calls).toHaveLength(3);
    expect(await screen.findByTestId('blocked-workers-empty')).toBeTruthy();
  });

  it('after no answer, says the worker may have been unblocked and reads the list again', async () => {
    const calls = answerInTurn([200, { data: [OLDER] }], [504, 'Gateway Timeout'], [200, { data: [] }]);
    renderPage();
    await screen.findByTestId('blocked-workers-table');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: `Unblock ${OLDER.worker}` })));
    expect(screen.getByRole('alert').textContent).toContain(`No answer from the server: ${OLDER.worker} may have been unblocked. The list is read again.`);
    expect(calls).toHaveLength(3);
    expect(await screen.findByTestId('blocked-workers-empty')).toBeTruthy();
  });
});
