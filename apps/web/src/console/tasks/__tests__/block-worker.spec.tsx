import { afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { TextEncoder } from 'node:util';
import type { ReactNode } from 'react';
import { answer } from '../../../api/__tests__/fake-fetch';
import { ApiError } from '../../../api/client';
import { consoleApi, type BlockWorkerResult } from '../../lib/console-api';
import { installDialog } from '../../__tests__/jsdom-dialog';

// react-router needs TextEncoder, which jsdom lacks: the router and the section are imported once it is there.
let router: typeof import('react-router');
let section: typeof import('../block-worker');
let flow: typeof import('../../workers/use-block-worker');
beforeAll(async () => {
  installDialog();
  Object.assign(globalThis, { TextEncoder });
  [router, section, flow] = await Promise.all([import('react-router'), import('../block-worker'), import('../../workers/use-block-worker')]);
});

/** The section's links need a router. */
function inRouter(children: ReactNode) {
  return render(<router.MemoryRouter>{children}</router.MemoryRouter>);
}

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
  jest.restoreAllMocks();
});

const PROJECT = '6f1c1b2e-0000-4000-8000-00000000000a';
const ALICE = 'worker_3fa9c2d1e0b4';
const BOB = 'worker_0123456789ab';

function aResult(overrides: Partial<BlockWorkerResult> = {}): BlockWorkerResult {
  return {
    id: 'block-1',
    worker: ALICE,
    project: { uuid: PROJECT, display_name: 'Find the cars' },
    blocked_at: '2026-01-01T00:00:00.000Z',
    created: true,
    ended_checkouts: 1,
    ...overrides,
  };
}

/** Renders the section for two workers and confirms the block of `worker`; the onDone mock. */
async function block(worker: string) {
  const onDone = jest.fn<() => void>();
  inRouter(<section.BlockWorker projectUuid={PROJECT} workers={[ALICE, BOB]} blockedAlready={[]} onDone={onDone} />);
  fireEvent.click(screen.getByRole('button', { name: `Block ${worker}…` }));
  const dialog = screen.getByRole('dialog', { name: `Block ${worker}?` });
  await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Block worker' })));
  return { onDone, dialog };
}

describe('BlockWorker', () => {
  it('says in the confirmation what a block does and does not do, starting on its Cancel button', () => {
    inRouter(<section.BlockWorker projectUuid={PROJECT} workers={[ALICE, BOB]} blockedAlready={[]} onDone={() => undefined} />);
    expect(screen.getAllByRole('button', { name: /^Block worker_/ }).map((b) => b.getAttribute('aria-label'))).toEqual([`Block ${ALICE}…`, `Block ${BOB}…`]);
    fireEvent.click(screen.getByRole('button', { name: `Block ${BOB}…` }));
    const dialog = screen.getByRole('dialog', { name: `Block ${BOB}?` });
    expect(within(dialog).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'They get no more tasks from any of your projects.',
      'Tasks they hold now are taken back, unsubmitted, for other workers to do.',
      'Their submissions so far stay in your results and in the consensus.',
      'You can unblock them on the Blocked workers page.',
    ]);
    expect(document.activeElement?.textContent).toBe('Don’t block');
  });

  it('offers no block for a worker the account blocked already, and says so', () => {
    inRouter(<section.BlockWorker projectUuid={PROJECT} workers={[ALICE, BOB]} blockedAlready={[BOB]} onDone={() => undefined} />);
    expect(screen.getAllByRole('button', { name: /^Block worker_/ }).map((b) => b.getAttribute('aria-label'))).toEqual([`Block ${ALICE}…`]);
    expect(screen.getByText(BOB).closest('li')?.textContent).toBe(`${BOB}blocked`);
  });

  it('is not shown for a task without submissions', () => {
    const { container } = inRouter(<section.BlockWorker projectUuid={PROJECT} workers={[]} blockedAlready={[]} onDone={() => undefined} />);
    expect(container.innerHTML).toBe('');
  });

  it('posts the block to the worker’s URL in this project, says what the server did and links to the Blocked workers page', async () => {
    const calls = answer(200, { data: aResult() });
    const { onDone } = await block(ALICE);
    expect(calls.map((c) => [c.init.method, c.url])).toEqual([['POST', `/api/console/projects/${PROJECT}/workers/${ALICE}/block`]]);
    const status = screen.getByRole('status');
    expect(status.textContent).toBe(`${ALICE} is blocked. 1 task they held was taken back. Blocked workers`);
    expect(within(status).getByRole('link', { name: 'Blocked workers' }).getAttribute('href')).toBe('/console/workers');
    expect(document.activeElement).toBe(status);
    expect(onDone).toHaveBeenCalledTimes(1);
    // The blocked worker's button goes; the other worker's stays.
    expect(screen.queryByRole('button', { name: `Block ${ALICE}…` })).toBeNull();
    expect(screen.getByRole('button', { name: `Block ${BOB}…` })).toBeTruthy();
  });

  it('says so when the worker was already blocked', async () => {
    answer(200, { data: aResult({ worker: BOB, created: false, ended_checkouts: 0 }) });
    await block(BOB);
    expect(screen.getByTestId('block-worker-result').textContent).toBe(`${BOB} was already blocked. Blocked workers`);
  });

  it('words the leases a block ended', () => {
    expect(flow.blockWorkerResultText(aResult({ ended_checkouts: 0 }))).toBe(`${ALICE} is blocked. They held none of your tasks.`);
    expect(flow.blockWorkerResultText(aResult({ ended_checkouts: 3 }))).toBe(`${ALICE} is blocked. 3 tasks they held were taken back.`);
    // A second block ends a lease that a checkout racing the first one took.
    expect(flow.blockWorkerResultText(aResult({ created: false, ended_checkouts: 1 }))).toBe(`${ALICE} was already blocked. 1 task they held was taken back.`);
  });

  it('shows the API’s 404 and blocks nobody', async () => {
    answer(404, { errors: [{ field: 'worker', detail: 'no submission of this project is by that worker' }] });
    const { onDone, dialog } = await block(ALICE);
    expect(screen.getByRole('alert').textContent).toBe(`${ALICE} was not blocked.worker: no submission of this project is by that worker`);
    expect(screen.queryByRole('status')).toBeNull();
    expect(onDone).not.toHaveBeenCalled();
    expect(dialog.hasAttribute('open')).toBe(false);
    // The button is still there to try again, and opening the dialog drops the old error.
    fireEvent.click(screen.getByRole('button', { name: `Block ${ALICE}…` }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('after no answer, says the worker may have been blocked and points to the Blocked workers page', async () => {
    jest.spyOn(consoleApi, 'blockWorker').mockRejectedValue(new ApiError(0, [{ field: 'root', detail: 'The server could not be reached. Check your connection and try again.' }], false));
    const { onDone } = await block(ALICE);
    expect(screen.getByRole('alert').textContent).toBe(
      `No answer from the server: ${ALICE} may have been blocked. Check the Blocked workers page.The server could not be reached. Check your connection and try again.`,
    );
    expect(screen.getByRole('link', { name: 'Blocked workers' }).getAttribute('href')).toBe('/console/workers');
    expect(onDone).toHaveBeenCalledTimes(1);
  });
});
