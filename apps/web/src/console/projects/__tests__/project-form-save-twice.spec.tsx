import type { ConsoleProjectResponse } from '@crowdbox/contracts';
import { afterEach, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { TextEncoder } from 'node:util';
import { ApiError } from '../../../api/client';
import { sessionApi } from '../../../api/session.api';
import { SessionProvider } from '../../../auth/session-context';
import { consoleApi, type ProjectProgress } from '../../lib/console-api';
import { aConsoleProject } from '../../__tests__/console-project.fixture';
import { installDialog } from '../../__tests__/jsdom-dialog';

// After "Saved.", the page reads the project again; a second Save pressed before that read arrives goes
// over the version the first save made (its PATCH answer), not the one the page opened with.

// react-router needs TextEncoder, which jsdom lacks: the router and the page are imported once it is there.
let router: typeof import('react-router');
let page: typeof import('../project-form-page');
beforeAll(async () => {
  installDialog();
  Object.assign(globalThis, { TextEncoder });
  [router, page] = await Promise.all([import('react-router'), import('../project-form-page')]);
});

const OPENED: ConsoleProjectResponse = aConsoleProject(1, {
  labels: [
    { name: 'car', color: '#1f77b4' },
    { name: 'bicycle', color: '#ff7f0e' },
  ],
});
const SAVED_AT = '2026-11-01T10:05:00.000Z';

beforeEach(() => {
  sessionStorage.clear();
  jest.spyOn(sessionApi, 'me').mockResolvedValue({ id: 'u1', account_id: 'a1', email: 'rita@example.com', name: 'Rita', created_at: OPENED.created_at });
  // The first read answers; the re-read after a save never does (a slow line).
  jest.spyOn(consoleApi, 'project').mockResolvedValueOnce(OPENED).mockReturnValue(new Promise<ConsoleProjectResponse>(() => undefined));
  jest.spyOn(consoleApi, 'progress').mockResolvedValue({ tasks: { outstanding: 2 } } as ProjectProgress);
});

afterEach(() => {
  jest.restoreAllMocks();
});

/** The server: a save must name the version it has now, which each save replaces with SAVED_AT (then later). */
function serverOfVersions() {
  let current = OPENED;
  return jest.spyOn(consoleApi, 'updateProject').mockImplementation(async (_uuid, expected, body) => {
    if (expected !== current.updated_at) throw new ApiError(409, [{ field: 'expected_updated_at', detail: 'the project was changed since' }]);
    const at = current === OPENED ? SAVED_AT : new Date(Date.parse(current.updated_at) + 60_000).toISOString();
    current = { ...current, ...body, updated_at: at } as ConsoleProjectResponse;
    return current;
  });
}

async function open() {
  const { MemoryRouter, Route, Routes } = router;
  render(
    <SessionProvider>
      <MemoryRouter initialEntries={[`/console/projects/${OPENED.uuid}/settings`]}>
        <Routes>
          <Route path="/console/projects/:projectUuid/settings" element={<page.ProjectFormPage />} />
        </Routes>
      </MemoryRouter>
    </SessionProvider>,
  );
  await act(async () => undefined);
}

const pressSave = () => act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save changes' })));

describe('a second save before the project is read again', () => {
  it('goes over the version the first save made, and is saved', async () => {
    const update = serverOfVersions();
    await open();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'street-scenes-a' } });
    await pressSave();
    expect(screen.getByText('Saved.')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'street-scenes-b' } });
    await pressSave();
    expect(update.mock.calls.map(([, expected]) => expected)).toEqual([OPENED.updated_at, SAVED_AT]);
    expect(screen.queryByTestId('changed-elsewhere')).toBeNull();
    expect(screen.getByText('Saved.')).toBeTruthy();
  });

  it('asks about a removed label once: the second save compares against the labels the first one saved', async () => {
    const update = serverOfVersions();
    await open();
    fireEvent.click(screen.getByRole('button', { name: 'Remove label bicycle' }));
    await pressSave();
    const dialog = screen.getByRole('dialog', { name: 'Remove or rename 1 label in use?' });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' })));
    expect(update).toHaveBeenCalledTimes(1);
    expect(screen.getByText('Saved.')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'street-scenes-b' } });
    await pressSave();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(update).toHaveBeenCalledTimes(2);
    expect(screen.getByText('Saved.')).toBeTruthy();
  });
});
