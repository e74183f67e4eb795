import type { ConsoleProjectResponse } from '@crowdbox/contracts';
import { afterEach, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { TextEncoder } from 'node:util';
import { ApiError } from '../../../api/client';
import { sessionApi } from '../../../api/session.api';
import { SessionProvider } from '../../../auth/session-context';
import { consoleApi } from '../../lib/console-api';

// The project form follows the rule of every form (docs/console.md, "Forms"): a refused save that names no
// field puts the focus on the error summary.

// react-router needs TextEncoder, which jsdom lacks: the router and the page are imported once it is there.
let router: typeof import('react-router');
let page: typeof import('../project-form-page');
beforeAll(async () => {
  Object.assign(globalThis, { TextEncoder });
  [router, page] = await Promise.all([import('react-router'), import('../project-form-page')]);
});

const UUID = '0b6c3b3e-58f4-4a53-9d0a-6a2f4c9c1e01';
const PROJECT: ConsoleProjectResponse = {
  uuid: UUID,
  name: 'street-scenes',
  display_name: 'Street scenes',
  display_short_description: 'Boxes around cars',
  default_required_submissions: 3,
  default_reward: 25,
  allowed_completion_time_seconds: 600,
  has_published_tasks: true,
  available_task_count: 2,
  average_outstanding_task_reward_cents: 25,
  lifetime_payments_to_workers_cents: 0,
  template: '<p>Box every car</p>',
  variables: {},
  labels: [
    { name: 'car', color: '#1f77b4' },
    { name: 'bicycle', color: '#ff7f0e' },
  ],
  image_variable: 'image_url',
  consensus_iou_threshold: 0.5,
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
  archived_at: null,
};

const NO_ANSWER = () => new ApiError(0, [{ field: 'root', detail: 'The server could not be reached. Check your connection and try again.' }], false);

beforeEach(() => {
  sessionStorage.clear();
  jest.spyOn(sessionApi, 'me').mockResolvedValue({ id: 'u1', account_id: 'a1', email: 'rita@example.com', name: 'Rita', created_at: PROJECT.created_at });
});

afterEach(() => {
  jest.restoreAllMocks();
});

async function open(path: string) {
  const { MemoryRouter, Route, Routes } = router;
  render(
    <SessionProvider>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/console/projects/new" element={<page.ProjectFormPage />} />
          <Route path="/console/projects/:projectUuid/settings" element={<page.ProjectFormPage />} />
        </Routes>
      </MemoryRouter>
    </SessionProvider>,
  );
  await act(async () => undefined);
}

describe('the project form’s refusals that name no field', () => {
  it('a create that got no answer puts the focus on the error summary', async () => {
    jest.spyOn(consoleApi, 'createProject').mockRejectedValue(NO_ANSWER());
    await open('/console/projects/new');
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'street-scenes' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Create project' })));
    const summary = screen.getByTestId('error-list');
    expect(summary.textContent).toContain('No answer from the server: the project may have been created.');
    expect(document.activeElement).toBe(summary);
  });

  it('a create pressed again with the same form sends the same Idempotency-Key, so it cannot make two projects; a changed form sends a new one', async () => {
    const create = jest.spyOn(consoleApi, 'createProject').mockRejectedValue(NO_ANSWER());
    await open('/console/projects/new');
    const press = () => act(async () => fireEvent.click(screen.getByRole('button', { name: 'Create project' })));
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'street-scenes' } });
    await press();
    expect(screen.getByTestId('error-list').textContent).toContain('Press Create project again without changing the form');
    await press();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'street-scenes-2' } });
    await press();
    const keys = create.mock.calls.map(([, key]) => key);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys).toEqual([keys[0], keys[0], expect.not.stringMatching(keys[0] as string)]);
  });

  it('a failed read of the outstanding tasks (before a label is removed) puts the focus on the error summary', async () => {
    jest.spyOn(consoleApi, 'project').mockResolvedValue(PROJECT);
    jest.spyOn(consoleApi, 'progress').mockRejectedValue(new ApiError(503, [{ field: 'root', detail: 'The server answered 503 Service Unavailable' }], false));
    const update = jest.spyOn(consoleApi, 'updateProject');
    await open(`/console/projects/${UUID}/settings`);
    fireEvent.click(screen.getByRole('button', { name: 'Remove label bicycle' }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save changes' })));
    const summary = screen.getByTestId('error-list');
    expect(summary.textContent).toContain('The server answered 503 Service Unavailable');
    expect(document.activeElement).toBe(summary);
    expect(update).not.toHaveBeenCalled();
  });
});
