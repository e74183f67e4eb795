import { afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { TextEncoder } from 'node:util';
import { sessionApi } from '../../api/session.api';
import { workApi } from '../../api/work.api';

// The ✕ "Dismiss message" goes with its message: the focus moves to the page's heading, not to the
// page's body (docs/annotator.md, the work list).

let router: typeof import('react-router');
let page: typeof import('../work-projects-page');
let session: typeof import('../../auth/session-context');
beforeAll(async () => {
  Object.assign(globalThis, { TextEncoder });
  [router, page, session] = await Promise.all([import('react-router'), import('../work-projects-page'), import('../../auth/session-context')]);
});

afterEach(() => {
  jest.restoreAllMocks();
});

describe('the work list’s notice', () => {
  it('after ✕, puts the focus on the page’s heading', async () => {
    jest.spyOn(sessionApi, 'me').mockResolvedValue({ id: 'u1', email: 'w@example.com', name: 'W' } as Awaited<ReturnType<typeof sessionApi.me>>);
    jest.spyOn(workApi, 'projects').mockResolvedValue([]);
    jest.spyOn(workApi, 'activeCheckouts').mockResolvedValue([]);
    jest.spyOn(workApi, 'earnings').mockResolvedValue({ submission_count: 1, earned_cents: 25, projects: [] });
    const { MemoryRouter, Routes, Route } = router;
    render(
      <session.SessionProvider>
        <MemoryRouter initialEntries={[{ pathname: '/work', state: { notice: { tone: 'success', text: 'Submitted 2 boxes. You earned $0.25.' } } }]}>
          <Routes>
            <Route path="/work" element={<page.WorkProjectsPage />} />
          </Routes>
        </MemoryRouter>
      </session.SessionProvider>,
    );
    const notice = await screen.findByTestId('work-notice');
    const dismiss = screen.getByRole('button', { name: 'Dismiss message' });
    dismiss.focus();
    await act(async () => {
      fireEvent.click(dismiss);
    });

    expect(notice.isConnected).toBe(false);
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Find work' }));
  });
});
