import { afterEach, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { TextEncoder } from 'node:util';
import { ApiError } from '../../api/client';
import { sessionApi } from '../../api/session.api';
import { SessionProvider } from '../session-context';

// Only a 401 from GET /api/session/me means nobody is signed in: a 502 during a deploy, a 504 or a network
// error says nothing about the session, and sent a signed-in user to log in.

let router: typeof import('react-router');
let guard: typeof import('../require-session');
beforeAll(async () => {
  Object.assign(globalThis, { TextEncoder });
  [router, guard] = await Promise.all([import('react-router'), import('../require-session')]);
});

beforeEach(() => {
  // The provider says on the console why the session could not be read.
  jest.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  jest.restoreAllMocks();
});

const USER = { id: 'u1', account_id: 'a1', email: 'wanda@example.com', name: 'Wanda', created_at: '2026-11-01T10:00:00.000Z' };

async function openWork() {
  const { MemoryRouter, Route, Routes } = router;
  render(
    <SessionProvider>
      <MemoryRouter initialEntries={['/work']}>
        <Routes>
          <Route
            path="/work"
            element={
              <guard.RequireSession>
                <p>Find work</p>
              </guard.RequireSession>
            }
          />
          <Route path="/login" element={<p>Log in page</p>} />
        </Routes>
      </MemoryRouter>
    </SessionProvider>,
  );
  await act(async () => undefined);
}

describe('reading the session', () => {
  it.each([
    ['a 502', () => new ApiError(502, [{ field: 'root', detail: 'The server answered 502 Bad Gateway.' }], false)],
    ['a 504', () => new ApiError(504, [{ field: 'root', detail: 'The server answered 504 Gateway Timeout.' }], false)],
    ['no answer', () => new ApiError(0, [{ field: 'root', detail: 'The server could not be reached. Check your connection and try again.' }], false)],
  ])('after %s, says so with Try again instead of sending the user to log in; Try again reads it again', async (_, failure) => {
    const me = jest.spyOn(sessionApi, 'me').mockRejectedValueOnce(failure()).mockResolvedValueOnce(USER);
    await openWork();

    expect(screen.queryByText('Log in page')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Could not check your session' })).toBeTruthy();
    expect(screen.getByTestId('error-list').textContent).toContain(failure().errors[0].detail);

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Try again' })));
    expect(me).toHaveBeenCalledTimes(2);
    expect(screen.getByText('Find work')).toBeTruthy();
  });

  it('a Try again that fails too keeps the page, and the focus on its button', async () => {
    jest.spyOn(sessionApi, 'me').mockRejectedValue(new ApiError(503, [{ field: 'root', detail: 'The server answered 503.' }], false));
    await openWork();
    const again = screen.getByRole('button', { name: 'Try again' });
    again.focus();
    await act(async () => fireEvent.click(again));
    expect(screen.getByRole('heading', { name: 'Could not check your session' })).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Try again' }));
  });

  it('after a 401, sends the user to log in', async () => {
    jest.spyOn(sessionApi, 'me').mockRejectedValue(new ApiError(401, [{ field: 'root', detail: 'not signed in' }]));
    await openWork();
    expect(screen.getByText('Log in page')).toBeTruthy();
  });
});
