import { afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { TextEncoder } from 'node:util';
import type { NavigateFunction } from 'react-router';
import { ApiError } from '../../../api/client';
import { consoleApi, type WebhookEvent } from '../../lib/console-api';

// react-router needs TextEncoder, which jsdom lacks: the router and the log are imported once it is there.
let router: typeof import('react-router');
let EventLog: typeof import('../event-log').EventLog;
beforeAll(async () => {
  Object.assign(globalThis, { TextEncoder });
  let log: typeof import('../event-log');
  [router, log] = await Promise.all([import('react-router'), import('../event-log')]);
  EventLog = log.EventLog;
});

afterEach(() => {
  jest.restoreAllMocks();
});

/** The log on /console/webhooks (its filter is in the address), beside another page; the router's navigate. */
function renderLog(path = '/console/webhooks') {
  const { MemoryRouter, Route, Routes, useNavigate } = router;
  const to: { navigate?: NavigateFunction } = {};
  function Navigator() {
    to.navigate = useNavigate();
    return null;
  }
  const view = render(
    <MemoryRouter initialEntries={[path]}>
      <Navigator />
      <Routes>
        <Route path="/console/webhooks" element={<EventLog onActivity={() => undefined} />} />
        <Route path="/console/keys" element={<p>Keys</p>} />
      </Routes>
    </MemoryRouter>,
  );
  return { ...view, navigate: (where: string | number) => act(async () => void (typeof where === 'number' ? to.navigate?.(where) : to.navigate?.(where))) };
}

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
    renderLog();
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
    renderLog();
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
      renderLog();
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
      renderLog();
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

  describe('the filter', () => {
    it('is kept in the address: leaving the page and coming Back shows the same filter', async () => {
      const events = jest.spyOn(consoleApi, 'webhookEvents').mockResolvedValue([FAILED]);
      const { navigate } = renderLog();
      await screen.findAllByTestId('event-row');
      await act(async () => {
        fireEvent.change(screen.getByLabelText('Show'), { target: { value: 'failed' } });
      });
      await screen.findAllByTestId('event-row');
      await navigate('/console/keys');
      await screen.findByText('Keys');
      events.mockClear();
      await navigate(-1);
      await screen.findAllByTestId('event-row');
      expect((screen.getByLabelText('Show') as HTMLSelectElement).value).toBe('failed');
      expect(events.mock.calls.map(([query]) => query.state)).toEqual(['failed']);
    });

    it('is read from the address, and a link to the page without one shows every event from the top', async () => {
      const events = jest.spyOn(consoleApi, 'webhookEvents').mockResolvedValue([FAILED]);
      const { navigate } = renderLog('/console/webhooks?events=failed');
      await screen.findAllByTestId('event-row');
      expect((screen.getByLabelText('Show') as HTMLSelectElement).value).toBe('failed');
      expect(events.mock.calls.map(([query]) => query.state)).toEqual(['failed']);
      events.mockClear();
      await navigate('/console/webhooks');
      await screen.findAllByTestId('event-row');
      expect((screen.getByLabelText('Show') as HTMLSelectElement).value).toBe('');
      expect(events.mock.calls.map(([query]) => query.state)).toEqual([undefined]);
    });
  });
});
