import { afterEach, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { TextEncoder } from 'node:util';
import { ApiError } from '../../api/client';
import { sessionApi } from '../../api/session.api';
import { SessionProvider } from '../../auth/session-context';
import { installDialog } from '../../console/__tests__/jsdom-dialog';

// react-router needs TextEncoder, which jsdom lacks: the router and the pages are imported once it is there.
let router: typeof import('react-router');
let account: typeof import('../account-page');
let auth: typeof import('../../auth/auth-page');
beforeAll(async () => {
  Object.assign(globalThis, { TextEncoder });
  [router, account, auth] = await Promise.all([import('react-router'), import('../account-page'), import('../../auth/auth-page')]);
});
installDialog();

beforeEach(() => {
  jest.spyOn(sessionApi, 'me').mockResolvedValue({ id: 'u1', account_id: 'a1', email: 'wanda@example.com', name: 'Wanda', created_at: '2026-11-01T10:00:00.000Z' });
  // The page lists the signed-in devices as it opens (signed-in-devices.spec.tsx tests that list).
  jest.spyOn(sessionApi, 'sessions').mockResolvedValue([]);
});

afterEach(() => {
  jest.restoreAllMocks();
});

async function open() {
  const { MemoryRouter, Route, Routes } = router;
  render(
    <SessionProvider>
      <MemoryRouter initialEntries={['/account']}>
        <Routes>
          <Route path="/account" element={<account.AccountPage />} />
          <Route path="/login" element={<auth.LoginPage />} />
          <Route path="/work" element={<p>Find work</p>} />
        </Routes>
      </MemoryRouter>
    </SessionProvider>,
  );
  await act(async () => undefined);
  await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Delete account…' })));
}

const confirm = async (password: string) => {
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Delete my account' })));
};

describe('Delete account', () => {
  it('says what goes and what stays, and sends the password typed', async () => {
    const deleteAccount = jest.spyOn(sessionApi, 'deleteAccount').mockRejectedValue(new ApiError(422, [{ field: 'password', detail: 'is wrong' }]));
    await open();
    const summary = screen.getByTestId('delete-account-summary').textContent ?? '';
    for (const words of ['archived', 'outstanding tasks cancelled', 'API keys are revoked', 'signed out', 'Results stay']) expect(summary).toContain(words);
    // The last chance to take a copy is offered in the confirmation itself.
    const offer = within(screen.getByTestId('delete-account-download')).getByRole('link', { name: 'Download your data' });
    expect(offer.getAttribute('href')).toBe('/api/session/export');
    expect(offer.hasAttribute('download')).toBe(true);
    await confirm('not my password');
    expect(deleteAccount).toHaveBeenCalledWith('not my password');
    // The refusal is shown on the field, in the dialog, which stays open; nothing else happened.
    expect(screen.getByText('is wrong')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Account' })).toBeTruthy();
  });

  it('after the deletion, signs the app out and says on the log-in page that the account was deleted', async () => {
    jest.spyOn(sessionApi, 'deleteAccount').mockResolvedValue({ deleted: true });
    await open();
    await confirm('correct horse battery');
    expect(screen.getByTestId('account-deleted').textContent).toBe('Your account was deleted and you were signed out everywhere.');
    expect(screen.getByRole('heading', { name: 'Log in' })).toBeTruthy();
  });

  it('after no answer, says the account may have been deleted and lets the user try again', async () => {
    jest
      .spyOn(sessionApi, 'deleteAccount')
      .mockRejectedValueOnce(new ApiError(0, [{ field: 'root', detail: 'The server could not be reached. Check your connection and try again.' }], false))
      .mockResolvedValueOnce({ deleted: true });
    await open();
    await confirm('correct horse battery');
    expect(screen.getByRole('alert').textContent).toContain('No answer from the server: your account may have been deleted.');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Delete my account' })));
    expect(screen.getByTestId('account-deleted')).toBeTruthy();
  });

  it('opened again after Keep it, shows an empty field without the last try’s error', async () => {
    jest.spyOn(sessionApi, 'deleteAccount').mockRejectedValue(new ApiError(422, [{ field: 'password', detail: 'is wrong' }]));
    await open();
    await confirm('not my password');
    expect(screen.getByText('is wrong')).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Keep it' })));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Delete account…' })));

    const field = screen.getByLabelText('Password') as HTMLInputElement;
    expect(field.value).toBe('');
    expect(screen.queryByText('is wrong')).toBeNull();
    expect(field.getAttribute('aria-invalid')).not.toBe('true');
  });
});
