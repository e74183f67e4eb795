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

  describe('"Load older events" that fails', () => {
    const event = (i: number): WebhookEvent => ({
      ...FAILED,
      id: `0b9f0a52-0000-4000-8000-${String(i).padStart(12, '0')}`,
      state: 'delivered',
      delivered_at: '2026-01-01T00:00:00.000Z',
      created_at: new Date(Date.UTC(2026, 0, 1) - i * 1000).toISOString(),
    });
    const unreachable = () => new ApiError(0, [{ field: 'root', detail: 'The server could not be reached. Check your connection and try again.' }], false);

    async function failOnce() {
      const first = Array.from({ length: 50 }, (_, i) => event(i));
      const older = Array.from({ length: 10 }, (_, i) => event(50 + i));
      const events = jest.spyOn(consoleApi, 'webhookEvents').mockImplementation(async ({ before }) => (before ? older : first));
      render(<EventLog onActivity={() => undefined} />);
      await screen.findAllByTestId('event-row');
      events.mockRejectedValueOnce(unreachable());
      const button = screen.getByRole('button', { name: 'Load older events' });
      button.focus();
      await act(async () => {
        fireEvent.click(button);
      });
      const error = screen.getByTestId('error-list');
      expect(error.textContent).toBe('Older events could not be loaded.The server could not be reached. Check your connection and try again.');
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Load older events' }));
    }

    it('says so with a title, and the error goes with a retry that works', async () => {
      await failOnce();
      await act(async () => {
        fireEvent.click(screen.getByRole('button', { name: 'Load older events' }));
      });
      expect(screen.getAllByTestId('event-row')).toHaveLength(60);
      expect(screen.queryByTestId('error-list')).toBeNull();
    });

    it('the error goes with another filter', async () => {
      await failOnce();
      await act(async () => {
        fireEvent.change(screen.getByLabelText('Show'), { target: { value: 'failed' } });
      });
      await screen.findAllByTestId('event-row');
      expect(screen.queryByTestId('error-list')).toBeNull();
    });

    it('is aria-disabled, not disabled, while on its way, and a second press sends nothing', async () => {
      const events = jest.spyOn(consoleApi, 'webhookEvents').mockResolvedValue(Array.from({ length: 50 }, (_, i) => event(i)));
      render(<EventLog onActivity={() => undefined} />);
      await screen.findAllByTestId('event-row');
      events.mockReturnValue(new Promise(() => undefined));
      const button = screen.getByRole('button', { name: 'Load older events' });
      await act(async () => {
        fireEvent.click(button);
      });
      const loading = screen.getByRole('button', { name: 'Loading…' });
      expect(loading.getAttribute('aria-disabled')).toBe('true');
      expect(loading.hasAttribute('disabled')).toBe(false);
      fireEvent.click(loading);
      expect(events).toHaveBeenCalledTimes(2);
    });
  });
});
