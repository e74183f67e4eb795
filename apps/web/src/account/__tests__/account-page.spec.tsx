import { afterEach, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { TextEncoder } from 'node:util';
import { ApiError } from '../../api/client';
import { sessionApi } from '../../api/session.api';
import { SessionProvider } from '../../auth/session-context';

// react-router needs TextEncoder, which jsdom lacks: the router and the page are imported once it is there.
let router: typeof import('react-router');
let page: typeof import('../account-page');
beforeAll(async () => {
  Object.assign(globalThis, { TextEncoder });
  [router, page] = await Promise.all([import('react-router'), import('../account-page')]);
});

beforeEach(() => {
  jest.spyOn(sessionApi, 'me').mockResolvedValue({ id: 'u1', account_id: 'a1', email: 'wanda@example.com', name: 'Wanda', created_at: '2026-11-01T10:00:00.000Z' });
  // The page lists the signed-in devices as it opens (signed-in-devices.spec.tsx tests that list).
  jest.spyOn(sessionApi, 'sessions').mockResolvedValue([]);
});

afterEach(() => {
  jest.restoreAllMocks();
});

async function open() {
  const { MemoryRouter } = router;
  const { AccountPage } = page;
  render(
    <SessionProvider>
      <MemoryRouter>
        <AccountPage />
      </MemoryRouter>
    </SessionProvider>,
  );
  await act(async () => undefined);
}

describe('Sign out of other sessions', () => {
  it('says it is busy while on its way, and after no answer that the others may have been signed out', async () => {
    let fail: (error: unknown) => void = () => undefined;
    jest
      .spyOn(sessionApi, 'logOutOthers')
      .mockImplementationOnce(() => new Promise((_, reject) => (fail = reject)))
      .mockResolvedValueOnce({ signed_out_sessions: 0 });
    await open();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Sign out of other sessions' })));
    expect(screen.getByRole('button', { name: 'Please wait…' }).getAttribute('aria-disabled')).toBe('true');
    await act(async () => fail(new ApiError(0, [{ field: 'root', detail: 'The server could not be reached. Check your connection and try again.' }], false)));
    expect(screen.getByRole('alert').textContent).toBe(
      'No answer from the server: the other sessions may have been signed out. Press the button again to be sure.The server could not be reached. Check your connection and try again.',
    );
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Sign out of other sessions' })));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByTestId('others-signed-out').textContent).toBe('No other session was signed in.');
  });

  it('says nothing of a sign-out when the API refused it', async () => {
    jest.spyOn(sessionApi, 'logOutOthers').mockRejectedValue(new ApiError(429, [{ field: 'root', detail: 'too many requests' }]));
    await open();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Sign out of other sessions' })));
    expect(screen.getByRole('alert').textContent).toBe('too many requests');
  });
});

describe('Signed-in devices', () => {
  it('is read again after a password change, which signed the other devices out', async () => {
    jest.spyOn(sessionApi, 'changePassword').mockResolvedValue({ ok: true, signed_out_sessions: 1, token: 'cbs_successor' });
    await open();
    expect(sessionApi.sessions).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('region', { name: 'Signed-in devices' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Current password'), { target: { value: 'correct horse battery' } });
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'a brand new passphrase' } });
    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: 'a brand new passphrase' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Change password' })));
    expect(screen.getByTestId('password-changed').textContent).toBe('Your password was changed. 1 other session was signed out.');
    expect(sessionApi.sessions).toHaveBeenCalledTimes(2);
  });
});

describe('Your data', () => {
  it('says what the file holds and links to the export as a download, the way the results are downloaded', async () => {
    await open();
    const section = screen.getByRole('region', { name: 'Your data' });
    const text = section.textContent ?? '';
    for (const words of ['JSON file', 'every submission you made as a worker', 'Secrets', 'are not in it', 'Download JSON, COCO or CSV']) expect(text).toContain(words);
    const link = within(section).getByRole('link', { name: 'Download your data' });
    expect(link.getAttribute('href')).toBe('/api/session/export');
    expect(link.hasAttribute('download')).toBe(true);
  });
});
