import { afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { TextEncoder } from 'node:util';
import { ApiError } from '../../api/client';
import { sessionApi } from '../../api/session.api';
import { SessionProvider } from '../../auth/session-context';

// A log-out the server did not do leaves the session live, cookie and all (it is httpOnly: only the
// server's answer clears it). Showing the user signed out hid it, and a reload signed them back in.

let router: typeof import('react-router');
let menu: typeof import('../user-menu');
beforeAll(async () => {
  Object.assign(globalThis, { TextEncoder });
  [router, menu] = await Promise.all([import('react-router'), import('../user-menu')]);
});

afterEach(() => {
  jest.restoreAllMocks();
});

const USER = { id: 'u1', account_id: 'a1', email: 'wanda@example.com', name: 'Wanda Maximoff', created_at: '2026-11-01T10:00:00.000Z' };

async function openMenu() {
  const { MemoryRouter, Route, Routes } = router;
  render(
    <SessionProvider>
      <MemoryRouter initialEntries={['/work']}>
        <Routes>
          <Route path="/work" element={<menu.UserMenu />} />
          <Route path="/login" element={<p>Log in page</p>} />
        </Routes>
      </MemoryRouter>
    </SessionProvider>,
  );
  await act(async () => undefined);
  await act(async () => fireEvent.click(screen.getByTestId('user-menu')));
}

const logOutButton = () => screen.getByRole('button', { name: 'Log out' });

describe('logging out from the user menu', () => {
  it.each([
    ['a 503', () => new ApiError(503, [{ field: 'root', detail: 'The server answered 503 Service Unavailable' }], false)],
    ['no answer', () => new ApiError(0, [{ field: 'root', detail: 'The server could not be reached. Check your connection and try again.' }], false)],
  ])('after %s, stays signed in and says so in the menu; trying again logs out', async (_, failure) => {
    jest.spyOn(sessionApi, 'me').mockResolvedValue(USER);
    const logOut = jest.spyOn(sessionApi, 'logOut').mockRejectedValueOnce(failure()).mockResolvedValueOnce({ ok: true });
    await openMenu();

    await act(async () => fireEvent.click(logOutButton()));
    expect(screen.queryByText('Log in page')).toBeNull();
    expect(screen.getByTestId('user-menu').textContent).toContain('Wanda Maximoff');
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Could not log out; try again.');
    expect(alert.textContent).toContain(failure().errors[0].detail);

    await act(async () => fireEvent.click(logOutButton()));
    expect(logOut).toHaveBeenCalledTimes(2);
    expect(screen.getByText('Log in page')).toBeTruthy();
  });

  it('after a 401 (the session had ended already), is signed out', async () => {
    jest.spyOn(sessionApi, 'me').mockResolvedValue(USER);
    jest.spyOn(sessionApi, 'logOut').mockRejectedValue(new ApiError(401, [{ field: 'root', detail: 'the session has expired or was logged out; log in again' }]));
    await openMenu();
    await act(async () => fireEvent.click(logOutButton()));
    expect(screen.getByText('Log in page')).toBeTruthy();
    expect(screen.queryByTestId('user-menu')).toBeNull();
  });
});
