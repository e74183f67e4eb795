import { afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { ApiError, WRITE_TIMEOUT_MS } from '../../../api/client';
import { consoleApi, type CancelResult, type ConsoleTaskDetail } from '../../lib/console-api';
import { CancelTask, cancelTaskResultText } from '../cancel-task';
import { installDialog } from '../../__tests__/jsdom-dialog';

beforeAll(installDialog);

afterEach(() => {
  jest.restoreAllMocks();
});

function aTask(overrides: Partial<ConsoleTaskDetail> = {}): ConsoleTaskDetail {
  return {
    task_uuid: '6f1c1b2e-0000-4000-8000-000000000001',
    state: 'incomplete',
    external_image_url: null,
    reward: 25,
    required_submissions: 3,
    submission_count: 1,
    active_checkouts: 1,
    problem_reports: 0,
    created_at: '2026-01-01T00:00:00.000Z',
    completed_at: null,
    cancelled_at: null,
    prompt: '<p>Draw</p>',
    labels: [],
    frame: null,
    problems: [],
    results: { task_uuid: '6f1c1b2e-0000-4000-8000-000000000001', completed: false, completed_at: null, annotations: [], submissions: [] },
    blocked_workers: [],
    peer_agreement: [],
    ...overrides,
  };
}

/** Renders the section and opens its dialog; the dialog's text. */
function openDialog(task: ConsoleTaskDetail, onDone: () => void = () => undefined) {
  const view = render(<CancelTask projectUuid="p-1" task={task} onDone={onDone} />);
  fireEvent.click(screen.getByRole('button', { name: 'Cancel this task' }));
  const dialog = screen.getByRole('dialog', { name: 'Cancel this task?' });
  return { ...view, dialog };
}

describe('CancelTask', () => {
  it('states the cost first: the missing submissions × reward, the workers holding it, what stays', () => {
    const { dialog } = openDialog(aTask());
    expect(within(dialog).getByTestId('cancel-task-summary').textContent).toBe(
      '$0.50 of reward will not be paid: 2 missing submissions × $0.25. 1 worker holds it now; their work ends unsubmitted.',
    );
    expect(dialog.textContent).toContain('The 1 submission already made stays readable. This cannot be undone.');
    expect(within(dialog).queryByTestId('cancel-task-problems')).toBeNull();
    // A destructive dialog starts on its Cancel button.
    expect(document.activeElement?.textContent).toBe('Keep it');
  });

  it('names what workers reported, in the words of the problem list', () => {
    const { dialog } = openDialog(
      aTask({
        active_checkouts: 0,
        problems: [
          { problem: 'image_broken', count: 2, last_reported_at: '2026-01-02T00:00:00.000Z' },
          { problem: 'other', count: 1, last_reported_at: '2026-01-01T00:00:00.000Z' },
        ],
      }),
    );
    expect(within(dialog).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      '2 workers reported: The image does not load or is broken',
      '1 worker reported: Something else is wrong',
    ]);
    expect(within(dialog).getByTestId('cancel-task-summary').textContent).toContain('No worker holds it now.');
  });

  it('is not offered for a task that is complete or cancelled', () => {
    const { container, rerender } = render(<CancelTask projectUuid="p-1" task={aTask({ state: 'complete' })} onDone={() => undefined} />);
    expect(container.innerHTML).toBe('');
    rerender(<CancelTask projectUuid="p-1" task={aTask({ state: 'cancelled' })} onDone={() => undefined} />);
    expect(container.innerHTML).toBe('');
  });

  it('says what the server did, keeps saying it once the task reads as cancelled, and gives it the focus', async () => {
    const cancel = jest.spyOn(consoleApi, 'cancelTask').mockResolvedValue({ cancelled: 1, unspent_reward_cents: 50, ended_checkouts: 1 });
    const onDone = jest.fn<() => void>();
    const { dialog, rerender } = openDialog(aTask(), onDone);
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel the task' })));
    expect(cancel).toHaveBeenCalledWith('p-1', '6f1c1b2e-0000-4000-8000-000000000001');
    expect(onDone).toHaveBeenCalledTimes(1);
    const status = screen.getByRole('status');
    expect(status.textContent).toBe('Task cancelled. $0.50 will not be paid; 1 worker’s lease ended.');
    expect(document.activeElement).toBe(status);
    expect(screen.queryByRole('button', { name: 'Cancel this task' })).toBeNull();

    rerender(<CancelTask projectUuid="p-1" task={aTask({ state: 'cancelled' })} onDone={onDone} />);
    expect(screen.getByRole('status')).toBe(status);
    expect(document.activeElement).toBe(status);
  });

  it('words a cancel that changed nothing, and one that ended no lease', () => {
    const words = (r: CancelResult) => cancelTaskResultText(r);
    expect(words({ cancelled: 0, unspent_reward_cents: 0, ended_checkouts: 0 })).toBe('Nothing to cancel: the task was completed or cancelled meanwhile.');
    expect(words({ cancelled: 1, unspent_reward_cents: 125, ended_checkouts: 0 })).toBe('Task cancelled. $1.25 will not be paid; no worker held it.');
    expect(words({ cancelled: 1, unspent_reward_cents: 100, ended_checkouts: 2 })).toBe('Task cancelled. $1.00 will not be paid; 2 workers’ leases ended.');
  });

  it('after no answer (a gateway’s 504 page), reads the task again and says it may have been cancelled', async () => {
    jest.spyOn(consoleApi, 'cancelTask').mockRejectedValue(new ApiError(504, [{ field: 'root', detail: 'The server answered 504 Gateway Timeout' }], false));
    const onDone = jest.fn<() => void>();
    const { dialog } = openDialog(aTask(), onDone);
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel the task' })));
    expect(onDone).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('alert').textContent).toBe(
      'No answer from the server: the task may have been cancelled. It is read again.The server answered 504 Gateway Timeout',
    );
  });

  it('after no answer, keeps saying so once the task reads as cancelled, says it is, and takes the focus there', async () => {
    jest.spyOn(consoleApi, 'cancelTask').mockRejectedValue(new ApiError(502, [{ field: 'root', detail: 'The server answered 502 Bad Gateway' }], false));
    const onDone = jest.fn<() => void>();
    const { dialog, rerender } = openDialog(aTask(), onDone);
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel the task' })));
    expect(onDone).toHaveBeenCalledTimes(1);

    // The page's re-read shows the task cancelled: the button the focus was on goes.
    rerender(<CancelTask projectUuid="p-1" task={aTask({ state: 'cancelled' })} onDone={onDone} />);
    expect(screen.queryByRole('button', { name: 'Cancel this task' })).toBeNull();
    expect(screen.getByRole('alert').textContent).toContain('No answer from the server: the task may have been cancelled.');
    const status = screen.getByRole('status');
    expect(status.textContent).toBe('Read again: the task is cancelled.');
    expect(document.activeElement).toBe(status);
  });

  it('closes the dialog when the cancel never gets an answer, instead of holding the page on "Working…" for good', async () => {
    jest.useFakeTimers();
    const realFetch = globalThis.fetch;
    // A connection that died quietly: no answer until the request is aborted.
    globalThis.fetch = ((_url: string, init: RequestInit) =>
      new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason)))) as typeof fetch;
    try {
      const onDone = jest.fn<() => void>();
      const { dialog } = openDialog(aTask(), onDone);
      await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel the task' })));
      expect(within(dialog).getByRole('button', { name: 'Working…' })).toBeTruthy();
      await act(async () => void (await jest.advanceTimersByTimeAsync(WRITE_TIMEOUT_MS)));
      expect(dialog.hasAttribute('open')).toBe(false);
      expect(screen.getByRole('alert').textContent).toContain('No answer from the server: the task may have been cancelled.');
      expect(onDone).toHaveBeenCalledTimes(1);
    } finally {
      globalThis.fetch = realFetch;
      jest.useRealTimers();
    }
  });

  it('shows the API’s error and leaves the button to try again', async () => {
    jest.spyOn(consoleApi, 'cancelTask').mockRejectedValue(new ApiError(503, [{ field: 'root', detail: 'the database is busy' }]));
    const onDone = jest.fn<() => void>();
    const { dialog } = openDialog(aTask(), onDone);
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel the task' })));
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe('The task was not cancelled.the database is busy');
    expect(onDone).not.toHaveBeenCalled();
    expect(dialog.hasAttribute('open')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel this task' }));
    expect(dialog.hasAttribute('open')).toBe(true);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
