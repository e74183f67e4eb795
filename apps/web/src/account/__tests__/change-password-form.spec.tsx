import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { ApiError } from '../../api/client';
import { sessionApi } from '../../api/session.api';
import { ChangePasswordForm } from '../change-password-form';

afterEach(() => {
  jest.restoreAllMocks();
});

async function changeTo(newPassword: string) {
  fireEvent.change(screen.getByLabelText('Current password'), { target: { value: 'correct horse battery' } });
  fireEvent.change(screen.getByLabelText('New password'), { target: { value: newPassword } });
  fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: newPassword } });
  await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Change password' })));
}

describe('Change password', () => {
  it('after a change that got no answer, says the password may have changed, also beside the old one refused next', async () => {
    jest
      .spyOn(sessionApi, 'changePassword')
      .mockRejectedValueOnce(new ApiError(0, [{ field: 'root', detail: 'The server could not be reached. Check your connection and try again.' }], false))
      .mockRejectedValueOnce(new ApiError(422, [{ field: 'current_password', detail: 'is wrong' }]));
    render(<ChangePasswordForm email="wanda@example.com" onError={() => undefined} />);
    await changeTo('staple battery horse');
    const note = 'No answer from the server: your password may have been changed. If the current password is refused now, the new one is in force.';
    expect(screen.getByTestId('password-maybe-changed').textContent).toBe(note);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Change password' })));
    expect(screen.getByText('is wrong')).toBeTruthy();
    expect(screen.getByTestId('password-maybe-changed').textContent).toBe(note);
  });

  it('after a refusal by the API, says nothing of a change', async () => {
    jest.spyOn(sessionApi, 'changePassword').mockRejectedValue(new ApiError(429, [{ field: 'root', detail: 'too many attempts' }]));
    render(<ChangePasswordForm email="wanda@example.com" onError={() => undefined} />);
    await changeTo('staple battery horse');
    expect(screen.getByRole('alert').textContent).toBe('too many attempts');
    expect(screen.queryByTestId('password-maybe-changed')).toBeNull();
  });
});
