import { afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { render, screen, waitFor } from '@testing-library/react';
import { consoleApi, type WebhookSettings } from '../../lib/console-api';
import { TextEncoder } from 'node:util';

// react-router (the event log keeps its filter in the address) needs TextEncoder, which jsdom lacks: the
// router and the page are imported once it is there.
let Page: () => React.JSX.Element;
beforeAll(async () => {
  Object.assign(globalThis, { TextEncoder });
  const [{ MemoryRouter }, { WebhooksPage }] = await Promise.all([import('react-router'), import('../webhooks-page')]);
  Page = () => (
    <MemoryRouter>
      <WebhooksPage />
    </MemoryRouter>
  );
});

afterEach(() => {
  jest.restoreAllMocks();
});

describe('Callback addresses', () => {
  it('lists two addresses that show alike (their credentials hidden) as two rows, each with its own state', async () => {
    jest.spyOn(consoleApi, 'webhookEvents').mockResolvedValue([]);
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    // https://alice:…@ and https://bob:…@ the same host: the API shows both as https://***@hooks.example/in.
    const endpoint = (state: string, created_at: string) => ({ url: 'https://***@hooks.example/in', state, confirmed_at: null, last_error: null, created_at });
    const settings = (first: string): WebhookSettings => ({
      signing_secret: 'whsec_0000000000000000000000',
      previous_secret_expires_at: null,
      endpoints: [endpoint(first, '2026-01-01T00:00:00.000Z'), endpoint('failed', '2026-01-02T00:00:00.000Z')],
    });
    jest.spyOn(consoleApi, 'webhooks').mockResolvedValue(settings('pending'));
    render(<Page />);
    await waitFor(() => expect(screen.getAllByTestId('endpoint-row')).toHaveLength(2));
    const states = () => screen.getAllByTestId('endpoint-row').map((row) => row.querySelector('.badge')?.textContent);
    expect(states()).toEqual(['awaiting confirmation', 'failed']);
    expect(errors.mock.calls.map((c) => String(c[0]))).not.toContainEqual(expect.stringContaining('same key'));
  });
});
