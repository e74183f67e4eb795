import type { CheckoutResponse } from '@crowdbox/contracts';
import { afterEach, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { TextEncoder } from 'node:util';
import { ApiError } from '../../api/client';
import { sessionApi } from '../../api/session.api';
import { ALREADY_SUBMITTED, workApi } from '../../api/work.api';
import { SessionProvider } from '../../auth/session-context';

// The task page's cards after a lease: one submitted elsewhere when this page's countdown ended, and
// "Could not get a task" with what was said of the previous task.

let router: typeof import('react-router');
let page: typeof import('../work-task-page');
beforeAll(async () => {
  Object.assign(globalThis, { TextEncoder });
  [router, page] = await Promise.all([import('react-router'), import('../work-task-page')]);
});

const USER = { id: 'u1', account_id: 'a1', email: 'wanda@example.com', name: 'Wanda Maximoff', created_at: '2026-11-01T10:00:00.000Z' };

/** A task without an image (no Konva editor), whose time ends `inMs` from now. */
function aLease(checkoutId: string, inMs: number): CheckoutResponse {
  return {
    checkout_id: checkoutId,
    task_uuid: `task-${checkoutId}`,
    project_uuid: 'p-1',
    prompt: '<p>Box every car</p>',
    external_image_url: null,
    labels: [{ name: 'car', color: '#1f77b4' }],
    reward: 25,
    checked_out_at: new Date(Date.now() - 60_000).toISOString(),
    expires_at: new Date(Date.now() + inMs).toISOString(),
  };
}

function handsOut(...leases: CheckoutResponse[]) {
  const checkOut = jest.spyOn(workApi, 'checkOut');
  for (const data of leases) checkOut.mockResolvedValueOnce({ data, body: { data }, status: 201 });
  return checkOut;
}

async function openTaskPage() {
  const { MemoryRouter, Route, Routes } = router;
  render(
    <SessionProvider>
      <MemoryRouter initialEntries={['/work/p-1']}>
        <Routes>
          <Route path="/work/:projectUuid" element={<page.WorkTaskPage />} />
          <Route path="/work" element={<p>Work list</p>} />
        </Routes>
      </MemoryRouter>
    </SessionProvider>,
  );
  await act(async () => undefined);
  await act(async () => undefined);
}

beforeEach(() => {
  localStorage.clear();
  jest.spyOn(sessionApi, 'me').mockResolvedValue(USER);
});

afterEach(() => {
  jest.restoreAllMocks();
});

describe('the task page', () => {
  it('when the countdown ends on a lease submitted elsewhere, says so and checks out the next task only on "Next task"', async () => {
    // The lease's time is already past: its countdown ends as the task shows.
    const checkOut = handsOut(aLease('c1', -1000), aLease('c2', 600_000));
    jest.spyOn(workApi, 'release').mockRejectedValue(new ApiError(422, [{ field: 'root', detail: ALREADY_SUBMITTED }]));
    await openTaskPage();
    await act(async () => undefined);

    const card = screen.getByTestId('task-submitted');
    expect(card.textContent).toContain('This task was already submitted');
    expect(card.textContent).not.toContain('not sent');
    expect(checkOut).toHaveBeenCalledTimes(1);

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Next task' })));
    expect(checkOut).toHaveBeenCalledTimes(2);
    expect(screen.queryByTestId('task-submitted')).toBeNull();
  });

  it('keeps "Skipped…" on "Could not get a task" when "Try again" fails too', async () => {
    const checkOut = handsOut(aLease('c1', 600_000));
    checkOut.mockRejectedValue(new ApiError(500, [{ field: 'root', detail: 'internal error' }]));
    jest.spyOn(workApi, 'release').mockResolvedValue({ checkout_id: 'c1', state: 'released' });
    await openTaskPage();

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Skip' })));
    expect(screen.getByRole('heading', { name: 'Could not get a task' })).toBeTruthy();
    expect(screen.getByTestId('lease-notice').textContent).toContain('Skipped.');

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Try again' })));
    expect(checkOut).toHaveBeenCalledTimes(3);
    expect(screen.getByRole('heading', { name: 'Could not get a task' })).toBeTruthy();
    expect(screen.getByTestId('lease-notice').textContent).toContain('Skipped.');
  });
});
