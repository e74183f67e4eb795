import type { CreatedApiKeyResponse } from '@crowdbox/contracts';
import { afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { TextEncoder } from 'node:util';
import { consoleApi } from '../../lib/console-api';

// "I have saved it" removes its own box, the focused button with it: the focus must land somewhere
// stable, not on the page's body (docs/console.md, /console/keys).

let router: typeof import('react-router');
let page: typeof import('../api-keys-page');
beforeAll(async () => {
  Object.assign(globalThis, { TextEncoder });
  [router, page] = await Promise.all([import('react-router'), import('../api-keys-page')]);
});

afterEach(() => {
  jest.restoreAllMocks();
});

function key(n: number): CreatedApiKeyResponse {
  return {
    id: `k${n}`,
    mode: 'test',
    prefix: `cb_test_a${n}`,
    secret: `cb_test_a${n}SECRET`,
    created_at: '2026-11-26T10:00:00.000Z',
  } as CreatedApiKeyResponse;
}

async function showPage() {
  jest.spyOn(consoleApi, 'apiKeys').mockResolvedValue([]);
  jest.spyOn(consoleApi, 'projects').mockResolvedValue({ data: [], next_cursor: null, counts: { in_use: 0, archived: 0 } });
  const { createMemoryRouter, RouterProvider } = router;
  render(<RouterProvider router={createMemoryRouter([{ path: '/console/keys', element: <page.ApiKeysPage /> }], { initialEntries: ['/console/keys'] })} />);
  await screen.findByText(/No keys yet/);
}

async function press(button: HTMLElement) {
  button.focus();
  await act(async () => {
    fireEvent.click(button);
  });
}

describe('ApiKeysPage, "I have saved it"', () => {
  it('with no other new key, moves the focus to a sentence saying the secret is hidden', async () => {
    await showPage();
    jest.spyOn(consoleApi, 'createApiKey').mockResolvedValue(key(1));
    await press(screen.getByTestId('create-test-key'));
    await press(await screen.findByRole('button', { name: 'I have saved it' }));

    expect(screen.queryByTestId('new-key')).toBeNull();
    const status = screen.getByTestId('key-hidden');
    expect(status.textContent).toBe('Key cb_test_a1… hidden: its secret is no longer shown.');
    expect(document.activeElement).toBe(status);
  });

  it('with another new key on the page, moves the focus to that key’s box', async () => {
    await showPage();
    jest.spyOn(consoleApi, 'createApiKey').mockResolvedValueOnce(key(1)).mockResolvedValueOnce(key(2));
    await press(screen.getByTestId('create-test-key'));
    await press(screen.getByTestId('create-test-key'));
    expect(screen.getAllByTestId('new-key').map((b) => b.dataset.keyId)).toEqual(['k2', 'k1']);

    const [newest] = screen.getAllByTestId('new-key');
    await press(within(newest).getByRole('button', { name: 'I have saved it' }));
    expect(screen.getAllByTestId('new-key').map((b) => b.dataset.keyId)).toEqual(['k1']);
    expect(document.activeElement).toBe(screen.getByTestId('new-key'));
    expect(screen.queryByTestId('key-hidden')).toBeNull();
  });
});
