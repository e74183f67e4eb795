import { describe, expect, it } from '@jest/globals';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { useFocusStatus } from '../use-focus-status';

/** A page with an action whose result is said in a status sentence, and a field to put the focus elsewhere. */
function Page() {
  const [status, setStatus] = useState('');
  const statusRef = useFocusStatus(status);
  return (
    <>
      <input aria-label="Elsewhere" />
      <button type="button" onClick={() => setStatus('Key abc… is revoked.')}>
        Revoke abc
      </button>
      <button type="button" onClick={() => setStatus('Key def… is revoked.')}>
        Revoke def
      </button>
      <button type="button" onClick={() => setStatus('')}>
        Clear
      </button>
      {status && (
        <p role="status" tabIndex={-1} ref={statusRef}>
          {status}
        </p>
      )}
    </>
  );
}

const elsewhere = () => screen.getByRole('textbox', { name: 'Elsewhere' });
async function press(name: string) {
  await act(async () => fireEvent.click(screen.getByRole('button', { name })));
}

describe('useFocusStatus', () => {
  it('moves the focus to the status sentence when it appears, and again when it says something new', async () => {
    render(<Page />);
    await press('Revoke abc');
    expect(document.activeElement).toBe(screen.getByRole('status'));
    elsewhere().focus();
    await press('Revoke def');
    expect(document.activeElement?.textContent).toBe('Key def… is revoked.');
  });

  it('leaves the focus where it is while there is nothing to say, or nothing new', async () => {
    render(<Page />);
    await press('Revoke abc');
    elsewhere().focus();
    await press('Revoke abc');
    expect(document.activeElement).toBe(elsewhere());
    await press('Clear');
    expect(document.activeElement).toBe(elsewhere());
  });
});
