import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { ApiError } from '../../../api/client';
import { consoleApi, type WebhookEvent } from '../../lib/console-api';
import { EventLog } from '../event-log';

afterEach(() => {
  jest.restoreAllMocks();
});

const FAILED: WebhookEvent = {
  id: '0b9f0a52-0000-4000-8000-000000000001',
  type: 'task_completed',
  task_uuid: null,
  url: 'https://receiver.example/hook',
  state: 'failed',
  attempt_count: 1,
  next_attempt_at: null,
  delivered_at: null,
  created_at: '2026-01-01T00:00:00.000Z',
  attempts: [],
};

describe('EventLog', () => {
  it('sends one redelivery for a double click on Redeliver, and takes the next press once it is answered', async () => {
    jest.spyOn(consoleApi, 'webhookEvents').mockResolvedValue([FAILED]);
    let answer!: () => void;
    const redeliver = jest.spyOn(consoleApi, 'redeliver').mockImplementation(
      () =>
        new Promise((resolve) => {
          answer = () => resolve({ data: { id: FAILED.id, state: 'pending' }, body: { data: { id: FAILED.id, state: 'pending' } }, status: 202 });
        }),
    );
    render(<EventLog onActivity={() => undefined} />);
    const button = await screen.findByTestId('redeliver');

    fireEvent.click(button);
    fireEvent.click(button);
    expect(redeliver).toHaveBeenCalledTimes(1);
    // Busy but still focusable, as the app's other busy buttons are.
    expect(button.getAttribute('aria-disabled')).toBe('true');

    await act(async () => answer());
    expect(await screen.findByText(/is queued for delivery again/)).toBeTruthy();
    fireEvent.click(screen.getByTestId('redeliver'));
    expect(redeliver).toHaveBeenCalledTimes(2);
  });
  it('after a Redeliver that got no answer, reads the log again and says the event may have been queued', async () => {
    const events = jest.spyOn(consoleApi, 'webhookEvents').mockResolvedValue([FAILED]);
    jest
      .spyOn(consoleApi, 'redeliver')
      .mockRejectedValue(new ApiError(0, [{ field: 'root', detail: 'The server could not be reached. Check your connection and try again.' }], false));
    render(<EventLog onActivity={() => undefined} />);
    fireEvent.click(await screen.findByTestId('redeliver'));
    expect((await screen.findByTestId('redeliver-outcome')).textContent).toContain('may have been queued for delivery again');
    expect(events).toHaveBeenCalledTimes(2);
  });
});
