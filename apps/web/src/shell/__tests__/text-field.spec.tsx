import { describe, expect, it } from '@jest/globals';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { TextField } from '../text-field';

function PasswordForm({ onSubmit }: { onSubmit: () => void }) {
  const [value, setValue] = useState('');
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <TextField id="f-password" name="password" label="Password" type="password" autoComplete="new-password" hint="8 to 200 characters." value={value} onChange={setValue} />
      <button type="submit">Send</button>
    </form>
  );
}

describe('TextField', () => {
  it('shows a password on Show (a toggle, not a submit), and hides it again when the form is sent', async () => {
    let sent = 0;
    render(<PasswordForm onSubmit={() => (sent += 1)} />);
    const input = screen.getByLabelText('Password');
    const show = screen.getByRole('button', { name: 'Show' });
    expect(input.getAttribute('type')).toBe('password');
    expect(show.getAttribute('type')).toBe('button');
    expect(show.getAttribute('aria-controls')).toBe('f-password');

    fireEvent.click(show);
    expect(input.getAttribute('type')).toBe('text');
    expect(show.textContent).toBe('Hide');
    expect(sent).toBe(0);
    // Shown, it is still the new password to a password manager, and no spelling is corrected.
    expect(input.getAttribute('autocomplete')).toBe('new-password');
    expect(input.getAttribute('spellcheck')).toBe('false');
    expect(input.getAttribute('autocapitalize')).toBe('none');

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send' })));
    expect(sent).toBe(1);
    expect(input.getAttribute('type')).toBe('password');
    expect(show.textContent).toBe('Show');
  });

  it('ties the hint, or the error in its place, to the input', () => {
    const { rerender } = render(<TextField id="f-email" name="email" label="Email" type="email" hint="Where we write to you." value="" onChange={() => undefined} />);
    const input = screen.getByLabelText('Email');
    expect(screen.queryByRole('button')).toBeNull();
    expect(input.getAttribute('aria-describedby')).toBe('f-email-hint');
    expect(input.getAttribute('aria-invalid')).toBeNull();
    expect(input.getAttribute('autocapitalize')).toBe('none');
    rerender(<TextField id="f-email" name="email" label="Email" type="email" hint="Where we write to you." error="must be an email address" value="" onChange={() => undefined} />);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent).toBe('must be an email address');
  });
});
