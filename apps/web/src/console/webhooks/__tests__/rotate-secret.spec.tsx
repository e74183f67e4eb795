import { afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { ApiError } from '../../../api/client';
import { consoleApi, type WebhookSettings } from '../../lib/console-api';
import { TextEncoder } from 'node:util';
import { installDialog } from '../../__tests__/jsdom-dialog';

// react-router (the event log keeps its filter in the address) needs TextEncoder, which jsdom lacks: the
// router and the page are imported once it is there.
let Page: () => React.JSX.Element;
beforeAll(async () => {
  installDialog();
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

const BEFORE: WebhookSettings = { signing_secret: 'whsec_old0000000000000000', previous_secret_expires_at: null, endpoints: [] };
const ROTATED: WebhookSettings = { signing_secret: 'whsec_new1111111111111111', previous_secret_expires_at: '2026-01-02T00:00:00.000Z', endpoints: [] };

describe('Rotate secret', () => {
  it('after a rotation that got no answer, reads the settings again and says it may have rotated, instead of showing the old secret as current', async () => {
    jest.spyOn(consoleApi, 'webhookEvents').mockResolvedValue([]);
    // The server rotated; its answer was lost on the way back.
    const settings = jest.spyOn(consoleApi, 'webhooks').mockResolvedValueOnce(BEFORE).mockResolvedValue(ROTATED);
    jest
      .spyOn(consoleApi, 'rotateSigningSecret')
      .mockRejectedValue(new ApiError(0, [{ field: 'root', detail: 'The server could not be reached. Check your connection and try again.' }], false));
    render(<Page />);
    expect((await screen.findByTestId('signing-secret')).textContent).toContain('whsec_');

    fireEvent.click(screen.getByTestId('rotate-secret'));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Rotate the signing secret?' })).getByRole('button', { name: 'Rotate secret' }));

    expect(await screen.findByTestId('previous-secret')).toBeTruthy();
    expect(settings).toHaveBeenCalledTimes(2);
    const error = screen.getByTestId('error-list');
    expect(error.textContent).toContain('No answer from the server: the secret may have been rotated');
    expect(error.textContent).not.toContain('The secret was not rotated.');
  });

  it('after a refusal by the API, says the secret was not rotated', async () => {
    jest.spyOn(consoleApi, 'webhookEvents').mockResolvedValue([]);
    jest.spyOn(consoleApi, 'webhooks').mockResolvedValue(BEFORE);
    jest.spyOn(consoleApi, 'rotateSigningSecret').mockRejectedValue(new ApiError(429, [{ field: 'root', detail: 'rate limit exceeded; retry in 3 s' }]));
    render(<Page />);
    await screen.findByTestId('signing-secret');

    fireEvent.click(screen.getByTestId('rotate-secret'));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Rotate the signing secret?' })).getByRole('button', { name: 'Rotate secret' }));

    const error = await screen.findByTestId('error-list');
    expect(error.textContent).toContain('The secret was not rotated.');
    expect(error.textContent).toContain('rate limit exceeded; retry in 3 s');
  });
});
