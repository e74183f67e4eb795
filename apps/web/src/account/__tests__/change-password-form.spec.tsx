import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { ApiError } from '../../api/client';
import { sessionApi } from '../../api/session.api';
import { ChangePasswordForm } from '../change-password-form';

afterEach(() => {
  jest.restoreAllMocks();
});

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const press = () => act(async () => fireEvent.click(screen.getByRole('button', { name: 'Change password' })));

async function changeTo(newPassword: string, confirm = newPassword) {
  type('Current password', 'correct horse battery');
  type('New password', newPassword);
  type('Confirm new password', confirm);
  await press();
}

const NOTE = 'No answer from the server: your password may have been changed. If you are asked to log in, or the current password is refused now, the new one is in force.';

describe('Change password', () => {
  it('after a change that got no answer, says the password may have changed, also beside the old one refused next', async () => {
    jest
      .spyOn(sessionApi, 'changePassword')
      .mockRejectedValueOnce(new ApiError(0, [{ field: 'root', detail: 'The server could not be reached. Check your connection and try again.' }], false))
      .mockRejectedValueOnce(new ApiError(422, [{ field: 'current_password', detail: 'is wrong' }]));
    render(<ChangePasswordForm email="wanda@example.com" onError={() => undefined} />);
    await changeTo('staple battery horse');
    // The note heads the error summary, which has the focus: no field is in error.
    const summary = screen.getByRole('alert');
    expect(summary.textContent).toBe(`${NOTE}The server could not be reached. Check your connection and try again.`);
    expect(document.activeElement).toBe(summary);
    await press();
    expect(screen.getByText('is wrong')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe(NOTE);
    expect(document.activeElement).toBe(screen.getByLabelText('Current password'));
  });

  it('after a refusal by the API, says nothing of a change', async () => {
    jest.spyOn(sessionApi, 'changePassword').mockRejectedValue(new ApiError(429, [{ field: 'root', detail: 'too many attempts' }]));
    render(<ChangePasswordForm email="wanda@example.com" onError={() => undefined} />);
    await changeTo('staple battery horse');
    expect(screen.getByRole('alert').textContent).toBe('too many attempts');
    expect(screen.queryByText(NOTE)).toBeNull();
  });

  it('clears a field’s error when that field is edited; the confirmation’s error is found before anything is sent', async () => {
    const change = jest.spyOn(sessionApi, 'changePassword').mockRejectedValue(new ApiError(422, [{ field: 'current_password', detail: 'is wrong' }]));
    render(<ChangePasswordForm email="wanda@example.com" onError={() => undefined} />);
    await changeTo('staple battery horse', 'staple battery hose');
    expect(change).not.toHaveBeenCalled();
    const confirm = screen.getByLabelText('Confirm new password');
    expect(confirm.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(confirm.getAttribute('aria-describedby') ?? '')?.textContent).toBe('does not match the new password');
    expect(document.activeElement).toBe(confirm);
    type('Confirm new password', 'staple battery horse');
    expect(confirm.getAttribute('aria-invalid')).toBeNull();
    expect(screen.queryByText('does not match the new password')).toBeNull();

    await press();
    const current = screen.getByLabelText('Current password');
    expect(current.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(current);
    type('Current password', 'correct horse battery staple');
    expect(current.getAttribute('aria-invalid')).toBeNull();
    expect(screen.queryByText('is wrong')).toBeNull();
  });

  it('states the server’s rule for the new password, and what the last change did goes once the form is filled in again', async () => {
    jest.spyOn(sessionApi, 'changePassword').mockResolvedValue({ ok: true, signed_out_sessions: 2, token: 'cbs_successor' });
    render(<ChangePasswordForm email="wanda@example.com" onError={() => undefined} />);
    const next = screen.getByLabelText('New password');
    expect(document.getElementById(next.getAttribute('aria-describedby') ?? '')?.textContent).toBe('8 to 200 characters.');
    expect(next.getAttribute('autocomplete')).toBe('new-password');
    expect(screen.getByLabelText('Current password').getAttribute('autocomplete')).toBe('current-password');
    await changeTo('staple battery horse');
    expect(screen.getByRole('status').textContent).toBe('Your password was changed. 2 other sessions were signed out.');
    expect((screen.getByLabelText('Current password') as HTMLInputElement).value).toBe('');
    type('Current password', 'staple battery horse');
    expect(screen.queryByRole('status')).toBeNull();
  });
});
